import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { getGetAppSettingsQueryKey, useUpdateAppSettings } from '@/api/gen';
import type { AppSettings } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { notifySuccess } from '@/lib/notifications';

/** Edits the client's app settings: client name, whether media is enabled and election day. */
export function AppSettingsForm({ settings }: { settings: AppSettings }) {
  const queryClient = useQueryClient();
  const [clientName, setClientName] = useState(settings.client_name);
  const [mediaEnabled, setMediaEnabled] = useState(settings.mediaEnabled);
  const [electionDay, setElectionDay] = useState(settings.electionDay ?? '');
  const update = useUpdateAppSettings({
    mutation: {
      meta: { errorMessage: 'Could not update app settings' },
      onSuccess: (saved) => {
        queryClient.setQueryData(getGetAppSettingsQueryKey(), saved);
        notifySuccess('App settings saved');
      },
    },
  });

  const nameMissing = clientName.trim() === '';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (nameMissing) return;
    update.mutate({ id: settings.id, data: { client_name: clientName.trim(), mediaEnabled, electionDay } });
  };

  return (
    <Form onSubmit={onSubmit} noValidate className="app-settings-form">
      <Field
        id="app-settings-client-name"
        label="Client name"
        value={clientName}
        onChange={(e) => setClientName(e.target.value)}
        required
        invalid={nameMissing}
        error="You must enter a value"
      />
      <Form.Group className="mb-3">
        <Form.Check
          type="switch"
          id="app-settings-media-enabled"
          label="Media enabled"
          checked={mediaEnabled}
          onChange={(e) => setMediaEnabled(e.target.checked)}
        />
      </Form.Group>
      <Form.Group className="mb-3" controlId="app-settings-election-day">
        <Form.Label>Election day</Form.Label>
        <Form.Control type="date" value={electionDay} onChange={(e) => setElectionDay(e.target.value)} />
        <Form.Text>Marked on the planning calendar. Leave empty for none.</Form.Text>
      </Form.Group>
      <p className="text-body-secondary small">Client short name: {settings.client_short}</p>
      <Button type="submit" disabled={update.isPending || nameMissing}>
        Save
      </Button>
    </Form>
  );
}
