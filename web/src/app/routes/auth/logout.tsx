import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PageSpinner } from '@/components/page-spinner';
import { signOut } from '@/features/auth/lib/sign-out';
import { resetTrackedJobs } from '@/lib/job-tracker';
import { getToken, loginPathFor } from '@/lib/session';

/**
 * Logout on entry: ends the session on the server (refresh token and access token), forgets the tokens, client id
 * and short name and all cached data, then goes to login (a client user's login page names their client).
 */
export function Component() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [loginPath] = useState(() => loginPathFor(getToken()));
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const ended = signOut();
    queryClient.clear();
    resetTrackedJobs();
    void ended.then(() => navigate(loginPath, { replace: true }));
  }, [queryClient, navigate, loginPath]);
  return <PageSpinner label="Logging out" />;
}
