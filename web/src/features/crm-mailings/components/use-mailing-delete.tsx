import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { getGetMailingQueryKey, getListMailingsQueryKey, useDeleteMailing } from '@/api/gen';
import type { Mailing } from '@/api/gen/model';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { forgetDeleted } from '@/lib/forget-deleted';

/** Delete with the shared confirmation, then back to the mailings. */
export function useMailingDelete(mailing: Mailing | null) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteMailing({
    mutation: {
      meta: { errorMessage: 'Could not delete the mailing' },
      onSuccess: async () => {
        setConfirming(false);
        await forgetDeleted(queryClient, {
          item: mailing ? getGetMailingQueryKey(mailing.id) : undefined,
          lists: [getListMailingsQueryKey()],
          leave: () => navigate('/crm-mailings'),
        });
      },
      onError: () => setConfirming(false),
    },
  });
  const dialog = mailing ? (
    <ConfirmDeleteDialog
      show={confirming}
      busy={remove.isPending}
      onCancel={() => setConfirming(false)}
      onConfirm={() => remove.mutate({ id: mailing.id })}
    />
  ) : null;
  return { ask: () => setConfirming(true), busy: remove.isPending, dialog };
}
