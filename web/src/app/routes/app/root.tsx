import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate } from 'react-router';
import { useGetAppSettings, useGetAuthConfig, useGetMe } from '@/api/gen';
import { MainLayout } from '@/components/layouts/main-layout';
import { dropClientData } from '@/features/auth/hooks/use-complete-login';
import { NgpImportDialog } from '@/features/contacts/components/ngp-import-dialog';
import { JobBanners } from '@/features/jobs/components/job-banners';
import { JobFinishedDialog } from '@/features/jobs/components/job-finished-dialog';
import { JobPollers } from '@/features/jobs/components/job-pollers';
import { useResumeJobs } from '@/features/jobs/hooks/use-resume-jobs';
import { resetTrackedJobs } from '@/lib/job-tracker';
import { PageSpinner } from '@/components/page-spinner';
import { setClientTimeZone } from '@/lib/time-zone';
import { useDocumentTitle } from '../../use-document-title';

/** The signed-in shell: loads the user's permissions, app settings and provider, and watches jobs. */
export function Component() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useGetMe();
  const settings = useGetAppSettings({ query: { meta: { errorMessage: 'Could not load app settings' } } });
  const authConfig = useGetAuthConfig();
  const [ngpImportOpen, setNgpImportOpen] = useState(false);

  // Without permissions the session is unusable: log out.
  useEffect(() => {
    if (me.isError) void navigate('/auth/logout', { replace: true });
  }, [me.isError, navigate]);

  useResumeJobs(me.data ? { id: me.data.id, kind: me.data.kind } : undefined);
  useDocumentTitle(settings.data?.client_name);
  // Pages show dates in the client's zone: it is set before they render (children render after this component).
  setClientTimeZone(settings.data?.timeZone);

  // Switch Client: no data or job of this client survives; the session stays until another client is chosen. The
  // data goes once this shell has left (while it is mounted its queries would fetch it again).
  const switchClient = () => {
    resetTrackedJobs();
    void Promise.resolve(navigate('/auth/select-client')).then(() => dropClientData(queryClient));
  };

  // Client-auth deployments and client users' sessions are client-authenticated: no Switch Client, no Support Ticket.
  const clientAuthenticated = Boolean(authConfig.data?.clientAuthShort) || me.data?.canSwitchClient === false;

  const userName = me.data ? `${me.data.firstName} ${me.data.lastName}`.trim() || me.data.email : undefined;

  return (
    <MainLayout
      perms={me.data}
      userName={userName}
      clientName={settings.data?.client_name}
      providerName={authConfig.data?.providerName}
      clientAuth={clientAuthenticated}
      onSwitchClient={switchClient}
      onNavAction={() => setNgpImportOpen(true)}
      banners={<JobBanners />}
    >
      {settings.isPending ? (
        <PageSpinner label="Loading" />
      ) : (
        <>
          <Outlet />
          {settings.data && (
            <p className="small text-body-secondary mt-4 mb-0" data-testid="time-zone-note">
              Dates and times are in {settings.data.timeZone}.
            </p>
          )}
        </>
      )}
      <JobPollers />
      <JobFinishedDialog />
      <NgpImportDialog show={ngpImportOpen} onClose={() => setNgpImportOpen(false)} />
    </MainLayout>
  );
}
