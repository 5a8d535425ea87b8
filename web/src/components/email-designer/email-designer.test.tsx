import { act, createEvent, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { designToHtml } from './html';
import { createBlock } from './model';
import { DRAG_TYPE } from './email-designer';
import { EMAIL_DESIGNER_CHANGE_DEBOUNCE_MS, EmailDesigner } from './index';

/** jsdom has no DataTransfer: a minimal stand-in shared by a dragstart and the following drop. */
function dataTransfer() {
  const data: Record<string, string> = {};
  return {
    dropEffect: 'none',
    effectAllowed: 'all',
    get types() {
      return Object.keys(data);
    },
    setData: (type: string, value: string) => {
      data[type] = value;
    },
    getData: (type: string) => data[type] ?? '',
  };
}

/** A dragover/drop at `clientY` (jsdom has no DragEvent, so the coordinate is set on the plain event). */
function dragAt(kind: 'dragOver' | 'drop', el: HTMLElement, dt: ReturnType<typeof dataTransfer>, clientY: number) {
  const event = createEvent[kind](el, { dataTransfer: dt });
  Object.defineProperty(event, 'clientY', { value: clientY });
  fireEvent(el, event);
}

function setup(value = '') {
  const onChange = vi.fn<(html: string) => void>();
  const view = render(<EmailDesigner value={value} onChange={onChange} />);
  const flush = () => act(() => vi.advanceTimersByTime(EMAIL_DESIGNER_CHANGE_DEBOUNCE_MS));
  const last = () => onChange.mock.lastCall?.[0] ?? '';
  const blockNames = () =>
    screen.queryAllByTestId('canvas-block').map((li) => within(li).getAllByRole('button')[0].getAttribute('aria-label'));
  return { onChange, flush, last, blockNames, ...view };
}

const add = (label: string) => fireEvent.click(screen.getByRole('button', { name: `Add ${label}` }));

describe('EmailDesigner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('adding blocks emits e-mail HTML with the 600 px table and inline styles', () => {
    const { flush, last, onChange } = setup();
    add('Heading');
    add('Button');
    add('Two columns');
    flush();
    expect(onChange).toHaveBeenCalledTimes(1);
    const html = last();
    expect(html.startsWith('<!-- compass-designer:')).toBe(true);
    expect(html).toMatch(/<table role="presentation"[^>]*width="100%"/);
    expect(html).toMatch(/<table role="presentation"[^>]*width="600"[^>]*style="width:600px;/);
    expect(html).toMatch(/<h1 style="[^"]*font-size:28px;[^"]*">Heading<\/h1>/);
    expect(html).toContain('>Click here</a>');
    expect(html).not.toMatch(/<style|class=/);
  });

  it('debounces changes by 100 ms', () => {
    const { flush, onChange } = setup();
    add('Text');
    act(() => vi.advanceTimersByTime(60));
    add('Divider');
    act(() => vi.advanceTimersByTime(60));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(39));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledTimes(1);
    flush();
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('escapes text typed in the properties panel and keeps merge tags', () => {
    const { flush, last } = setup();
    add('Text');
    fireEvent.change(screen.getByLabelText('Text'), {
      target: { value: '<script>alert("x")</script> Hi {{First.Name}}, {{Email}} & co' },
    });
    flush();
    expect(last()).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Hi {{First.Name}}, {{Email}} &amp; co');
    expect(last()).not.toContain('<script>');
  });

  it('drops javascript: links and keeps https ones', () => {
    const { flush, last } = setup();
    add('Button');
    const link = screen.getByLabelText('Link URL');
    fireEvent.change(link, { target: { value: 'javascript:alert(1)' } });
    flush();
    expect(link).toHaveClass('is-invalid');
    expect(last()).not.toContain('javascript:');
    expect(last()).not.toContain('href=');
    fireEvent.change(link, { target: { value: 'https://example.com/?id={{Email}}' } });
    flush();
    expect(last()).toContain('href="https://example.com/?id={{Email}}"');
  });

  it('edits colours, alignment, padding and font size', () => {
    const { flush, last } = setup();
    add('Heading');
    fireEvent.change(screen.getByLabelText('Background colour'), { target: { value: '#112233' } });
    fireEvent.change(screen.getByLabelText('Text colour'), { target: { value: '#abcdef' } });
    fireEvent.change(screen.getByLabelText('Alignment'), { target: { value: 'center' } });
    fireEvent.change(screen.getByLabelText(/^Padding/), { target: { value: '30' } });
    fireEvent.change(screen.getByLabelText(/^Font size/), { target: { value: '40' } });
    flush();
    expect(last()).toMatch(/<td align="center" bgcolor="#112233" style="padding:30px;background-color:#112233;">/);
    expect(last()).toMatch(/font-size:40px;[^"]*color:#abcdef;text-align:center;/);
  });

  it('reorders and deletes with Move up / Move down / Delete', () => {
    const { blockNames, flush, last } = setup();
    add('Heading');
    add('Text');
    add('Divider');
    expect(blockNames()).toEqual(['Heading block 1', 'Text block 2', 'Divider block 3']);
    // The divider (just added) is selected.
    fireEvent.click(screen.getByRole('button', { name: 'Move up' }));
    expect(blockNames()).toEqual(['Heading block 1', 'Divider block 2', 'Text block 3']);
    fireEvent.click(screen.getByRole('button', { name: 'Move up' }));
    expect(blockNames()).toEqual(['Divider block 1', 'Heading block 2', 'Text block 3']);
    expect(screen.getByRole('button', { name: 'Move up' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Move down' }));
    expect(blockNames()).toEqual(['Heading block 1', 'Divider block 2', 'Text block 3']);
    fireEvent.click(screen.getByRole('button', { name: 'Text block 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(blockNames()).toEqual(['Heading block 1', 'Divider block 2']);
    flush();
    const html = last();
    expect(html).toContain('Heading');
    expect(html).not.toContain('Write your text here.');
    expect(html.indexOf('Heading</h1>')).toBeLessThan(html.indexOf('border-top:1px solid'));
  });

  it('inserts a dragged palette block at the drop position and reorders by dragging', () => {
    const { blockNames } = setup();
    // Onto the empty canvas.
    let dt = dataTransfer();
    fireEvent.dragStart(screen.getByTestId('palette-text'), { dataTransfer: dt });
    expect(dt.getData(DRAG_TYPE)).toBe('new:text');
    fireEvent.dragOver(screen.getByTestId('designer-canvas'), { dataTransfer: dt });
    fireEvent.drop(screen.getByTestId('designer-canvas'), { dataTransfer: dt });
    add('Divider');
    expect(blockNames()).toEqual(['Text block 1', 'Divider block 2']);

    // Blocks are 100 px tall, stacked: the upper half of a block inserts before it.
    for (const [i, li] of screen.getAllByTestId('canvas-block').entries()) {
      vi.spyOn(li, 'getBoundingClientRect').mockReturnValue({ top: i * 100, height: 100 } as DOMRect);
    }
    dt = dataTransfer();
    fireEvent.dragStart(screen.getByTestId('palette-heading'), { dataTransfer: dt });
    const [, divider] = screen.getAllByTestId('canvas-block');
    dragAt('dragOver', divider, dt, 110);
    expect(divider).toHaveStyle({ boxShadow: 'inset 0 3px 0 var(--bs-primary)' });
    dragAt('drop', divider, dt, 110);
    expect(blockNames()).toEqual(['Text block 1', 'Heading block 2', 'Divider block 3']);

    // Drag the divider (last) onto the upper half of the first block: it moves to the top.
    const blocks = screen.getAllByTestId('canvas-block');
    blocks.forEach((li, i) =>
      vi.spyOn(li, 'getBoundingClientRect').mockReturnValue({ top: i * 100, height: 100 } as DOMRect),
    );
    dt = dataTransfer();
    fireEvent.dragStart(blocks[2], { dataTransfer: dt });
    dragAt('drop', blocks[0], dt, 20);
    expect(blockNames()).toEqual(['Divider block 1', 'Text block 2', 'Heading block 3']);

    // Drops without the designer's payload are ignored.
    fireEvent.drop(screen.getByTestId('designer-canvas'), { dataTransfer: dataTransfer() });
    expect(blockNames()).toHaveLength(3);
  });

  it('reloads the blocks from the embedded JSON (round trip)', () => {
    const first = setup();
    add('Heading');
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Hello {{First.Name}} – ünïcode' } });
    add('Image');
    fireEvent.change(screen.getByLabelText('Image source URL'), { target: { value: 'https://example.com/logo.png' } });
    fireEvent.change(screen.getByLabelText('Alt text'), { target: { value: 'Our logo' } });
    first.flush();
    const html = first.last();
    first.unmount();

    const second = setup(html);
    expect(screen.queryByText(/not made with the designer/)).not.toBeInTheDocument();
    expect(second.blockNames()).toEqual(['Heading block 1', 'Image block 2']);
    expect(screen.getByText('Hello {{First.Name}} – ünïcode')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Our logo' })).toHaveAttribute('src', 'https://example.com/logo.png');
    // Loading emits nothing; the next edit produces the same HTML plus the change.
    second.flush();
    expect(second.onChange).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Image block 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move down' }));
    second.flush();
    expect(second.last()).toBe(html);
  });

  it('does not reload on its own echo but reloads a new value from outside', () => {
    const onChange = vi.fn();
    const { rerender } = render(<EmailDesigner value="" onChange={onChange} />);
    add('Heading');
    act(() => vi.advanceTimersByTime(EMAIL_DESIGNER_CHANGE_DEBOUNCE_MS));
    const echo = onChange.mock.lastCall?.[0] as string;
    rerender(<EmailDesigner value={echo} onChange={onChange} />);
    // Still selected (a reload would clear the selection).
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();

    const other = designToHtml([createBlock('spacer'), createBlock('text')]);
    rerender(<EmailDesigner value={other} onChange={onChange} />);
    expect(screen.getAllByTestId('canvas-block')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Spacer block 1' })).toBeInTheDocument();
  });

  it('hands over a pending change when unmounted', () => {
    const { onChange, unmount } = setup();
    add('Text');
    unmount();
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange.mock.lastCall?.[0]).toContain('Write your text here.');
  });

  it('shows a notice for foreign HTML and replaces it only on "Start a design"', () => {
    const { flush, onChange, last } = setup('<p>Hand-written body</p>');
    expect(
      screen.getByText('This body was not made with the designer. Starting a design replaces it.'),
    ).toBeInTheDocument();
    expect(screen.getByTitle('Current body')).toHaveAttribute('sandbox', '');
    expect(screen.queryByRole('button', { name: 'Add Heading' })).not.toBeInTheDocument();
    flush();
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Start a design' }));
    expect(screen.queryByText(/not made with the designer/)).not.toBeInTheDocument();
    add('Text');
    flush();
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(last()).toMatch(/^<!-- compass-designer:/);
    expect(last()).not.toContain('Hand-written body');
  });

  it('starts an empty design without a notice for an empty value', () => {
    setup('');
    expect(screen.queryByText(/not made with the designer/)).not.toBeInTheDocument();
    expect(screen.getByText('Drop blocks here.')).toBeInTheDocument();
  });
});
