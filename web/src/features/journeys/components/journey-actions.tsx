import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { activateJourney, archiveJourney, getGetJourneyQueryKey, getListJourneysQueryKey, pauseJourney } from '@/api/gen';
import { notifyCrmSuccess } from '@/lib/notifications';
import { ACTION_LABELS, actionsFor, type JourneyAction } from '../status';

const CALLS: Record<JourneyAction, (id: number) => Promise<unknown>> = {
  activate: (id) => activateJourney(id),
  pause: (id) => pauseJourney(id),
  archive: (id) => archiveJourney(id),
};

const DONE: Record<JourneyAction, string> = {
  activate: 'Journey activated',
  pause: 'Journey paused',
  archive: 'Journey archived',
};

/** Activate, pause and archive, as the journey's status allows; a refusal (a step the server names) is a snackbar. */
export function JourneyActions({ id, name, status }: { id: number; name: string; status: string }) {
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: (action: JourneyAction) => CALLS[action](id),
    onSuccess: async (_data, action) => {
      await queryClient.invalidateQueries({ queryKey: getListJourneysQueryKey() });
      await queryClient.invalidateQueries({ queryKey: getGetJourneyQueryKey(id) });
      notifyCrmSuccess(DONE[action]);
    },
  });
  return (
    <span className="d-inline-flex gap-1">
      {actionsFor(status).map((action) => (
        <Button
          key={action}
          size="sm"
          variant={action === 'activate' ? 'success' : action === 'pause' ? 'warning' : 'outline-secondary'}
          disabled={run.isPending}
          onClick={() => run.mutate(action)}
          aria-label={`${ACTION_LABELS[action]} ${name}`}
        >
          {ACTION_LABELS[action]}
        </Button>
      ))}
    </span>
  );
}
