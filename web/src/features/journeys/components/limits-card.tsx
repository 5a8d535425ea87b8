import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import { getGetJourneyLimitsQueryKey, updateJourneyLimits, useGetJourneyLimits } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { notifyCrmSuccess } from '@/lib/notifications';
import type { JourneyLimits } from '@/api/gen/model';
import { LimitsForm } from './limits-form';

/** The programme-wide frequency cap and quiet hours, loaded and saved. */
export function LimitsCard() {
  const queryClient = useQueryClient();
  const limits = useGetJourneyLimits({ query: { meta: { errorMessage: 'Could not load the limits' } } });
  const save = useMutation({
    meta: { silent: true },
    mutationFn: (body: JourneyLimits) => updateJourneyLimits(body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: getGetJourneyLimitsQueryKey() });
      notifyCrmSuccess('Limits saved');
    },
  });
  if (limits.isPending) return <PageSpinner label="Loading the limits" />;
  if (limits.isError) return <Alert variant="danger">Could not load the limits.</Alert>;
  return (
    <LimitsForm limits={limits.data} onSave={(l) => save.mutate(l)} saving={save.isPending} error={save.error?.message} />
  );
}
