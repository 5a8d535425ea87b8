import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PageSpinner } from '@/components/page-spinner';
import { resetTrackedJobs } from '@/lib/job-tracker';
import { clearSession } from '@/lib/session';

/** Logout on entry: forget the token, client id and short name and all cached data, then go to login. */
export function Component() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    clearSession();
    queryClient.clear();
    resetTrackedJobs();
    void navigate('/auth/login', { replace: true });
  }, [queryClient, navigate]);
  return <PageSpinner label="Logging out" />;
}
