import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GoogleButton } from '../components/google-button';
import { GOOGLE_IDENTITY_SCRIPT, loadGoogleIdentity } from './google-identity';

const googleScripts = () => Array.from(document.head.querySelectorAll<HTMLScriptElement>(`script[src="${GOOGLE_IDENTITY_SCRIPT}"]`));

afterEach(() => {
  delete window.google;
  googleScripts().forEach((s) => s.remove());
});

describe('loadGoogleIdentity', () => {
  it('adds Google\'s script only when asked, once, and resolves with google.accounts.id', async () => {
    expect(googleScripts()).toHaveLength(0);
    const first = loadGoogleIdentity();
    const second = loadGoogleIdentity();
    expect(googleScripts()).toHaveLength(1);
    const id = { initialize: vi.fn(), renderButton: vi.fn() };
    window.google = { accounts: { id } };
    googleScripts()[0].dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(id);
    await expect(second).resolves.toBe(id);
  });

  it('a script that cannot load (blocked, offline) rejects, is removed, and a later call tries again', async () => {
    const attempt = loadGoogleIdentity();
    googleScripts()[0].dispatchEvent(new Event('error'));
    await expect(attempt).rejects.toThrow('Google sign-in could not be loaded');
    expect(googleScripts()).toHaveLength(0);
    void loadGoogleIdentity().catch(() => {});
    expect(googleScripts()).toHaveLength(1);
    googleScripts()[0].dispatchEvent(new Event('error'));
  });
});

describe('GoogleButton', () => {
  it('renders nothing, and breaks nothing, when Google\'s script fails to load', async () => {
    render(
      <>
        <GoogleButton clientId="gid" onCredential={vi.fn()} />
        <p>rest of the page</p>
      </>,
    );
    expect(screen.getByTestId('google-sign-in')).toBeInTheDocument();
    await waitFor(() => expect(googleScripts()).toHaveLength(1));
    googleScripts()[0].dispatchEvent(new Event('error'));
    await waitFor(() => expect(screen.queryByTestId('google-sign-in')).not.toBeInTheDocument());
    expect(screen.getByText('rest of the page')).toBeInTheDocument();
  });
});
