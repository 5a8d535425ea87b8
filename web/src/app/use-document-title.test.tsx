import { render, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { documentTitle, useDocumentTitle } from './use-document-title';

function Shell() {
  useDocumentTitle('Demo for Congress');
  return <Outlet />;
}

describe('the browser tab title (issue 17, item 10)', () => {
  it('names the page and the client: "Lists · Demo for Congress · Compass"', async () => {
    const router = createMemoryRouter(
      [{ path: '/', Component: Shell, children: [{ path: 'crm-lists', handle: { title: 'Lists' }, Component: () => <p>lists</p> }] }],
      { initialEntries: ['/crm-lists'] },
    );
    render(<RouterProvider router={router} />);
    await waitFor(() => expect(document.title).toBe('Lists · Demo for Congress · Compass'));
  });

  it('leaves out what is not known yet', () => {
    expect(documentTitle(undefined, undefined)).toBe('Compass');
    expect(documentTitle('Lists', undefined)).toBe('Lists · Compass');
  });
});
