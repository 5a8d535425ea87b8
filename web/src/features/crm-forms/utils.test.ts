import { describe, expect, it } from 'vitest';
import { conversionRate, formDisplayName, formStatus, parseViewerPath, publicFormLink } from './utils';

describe('crm-forms utils', () => {
  it('names an empty form "Untitled"', () => {
    expect(formDisplayName('')).toBe('Untitled');
    expect(formDisplayName('  ')).toBe('Untitled');
    expect(formDisplayName('Spring')).toBe('Spring');
  });

  it('shows the status', () => {
    expect(formStatus({ enabled: true })).toBe('ENABLED');
    expect(formStatus({ enabled: false })).toBe('DISABLED');
  });

  it('formats the conversion rate with 2 decimals, "0.00" without views', () => {
    expect(conversionRate(1, 1)).toBe('1.00');
    expect(conversionRate(1, 3)).toBe('0.33');
    expect(conversionRate(2, 3)).toBe('0.67');
    expect(conversionRate(0, 0)).toBe('0.00');
    expect(conversionRate(3, 0)).toBe('0.00');
  });

  it('builds the public link', () => {
    expect(publicFormLink('https://app.example', 5, 'demo')).toBe('https://app.example/form-viewer;id=5;client=demo');
  });

  it.each([
    ['/form-viewer;id=5;client=demo', { id: 5, client: 'demo' }],
    ['/form-viewer;client=demo;id=12', { id: 12, client: 'demo' }],
    ['/form-viewer;id=5;client=my%20client', { id: 5, client: 'my client' }],
    ['/form-viewer;id=abc;client=demo', { id: null, client: 'demo' }],
    ['/form-viewer;id=5', { id: 5, client: null }],
    ['/form-viewer', { id: null, client: null }],
    ['/form-viewer;id=0;client=demo', { id: null, client: 'demo' }],
  ])('reads the matrix parameters of %s', (path, expected) => {
    expect(parseViewerPath(path)).toEqual(expected);
  });
});
