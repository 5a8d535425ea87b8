import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link, useNavigate } from 'react-router';
import { createJourney, getGetJourneyQueryKey, getListJourneysQueryKey, updateJourney, useGetJourney } from '@/api/gen';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { Field } from '@/components/form/field';
import { PageSpinner } from '@/components/page-spinner';
import { useUnsavedChanges } from '@/components/unsaved-changes';
import { notifyCrmSuccess } from '@/lib/notifications';
import { emptyDefinition } from '../definition';
import { withPositions } from '../layout';
import type { JourneyDefinition } from '../types';
import { JourneyBuilder } from './journey-builder';

export const JOURNEYS_CRUMB = { label: 'Journeys', to: '/journeys' };

/** The builder page: a new journey (no id) or a new version of an existing one. */
export function JourneyEditPage({ id }: { id?: number }) {
  const journey = useGetJourney(id ?? 0, {
    query: { enabled: id !== undefined, meta: { errorMessage: 'Could not load the journey' } },
  });
  if (id === undefined) return <JourneyEditor />;
  if (journey.isPending) return <PageSpinner label="Loading the journey" />;
  if (journey.isError) return <Alert variant="danger">Could not load the journey.</Alert>;
  const j = journey.data;
  return (
    <JourneyEditor
      id={j.id}
      initialName={j.name}
      initialDefinition={withPositions(j.definition as JourneyDefinition)}
      newVersion={j.status !== 'draft' || j.versions.length > 1}
      version={j.version}
    />
  );
}

interface EditorProps {
  id?: number;
  initialName?: string;
  initialDefinition?: JourneyDefinition;
  /** Saving creates a new version (the journey has been live); contacts inside finish the version they entered. */
  newVersion?: boolean;
  version?: number;
}

function JourneyEditor({ id, initialName = '', initialDefinition, newVersion = false, version }: EditorProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(initialName);
  const [definition, setDefinition] = useState<JourneyDefinition>(initialDefinition ?? emptyDefinition());
  // What was loaded, to tell whether anything would be lost by leaving (moving a box counts: it is saved too).
  const [loaded] = useState(() => JSON.stringify({ name, definition }));
  const unsaved = useUnsavedChanges(JSON.stringify({ name, definition }) !== loaded);
  const save = useMutation({
    // The server's refusal names the step; it shows beside the Save button rather than in a passing snackbar.
    meta: { silent: true },
    mutationFn: async (): Promise<number> => {
      const body = { name: name.trim(), definition };
      if (id === undefined) return (await createJourney(body)).id;
      await updateJourney(id, body);
      return id;
    },
    onSuccess: async (savedId) => {
      await queryClient.invalidateQueries({ queryKey: getListJourneysQueryKey() });
      await queryClient.invalidateQueries({ queryKey: getGetJourneyQueryKey(savedId) });
      notifyCrmSuccess('Journey saved');
      unsaved.allowNext();
      await navigate(`/journeys/${savedId}`);
    },
  });
  const nameMissing = !name.trim();
  return (
    <>
      <Breadcrumbs crumbs={[JOURNEYS_CRUMB, { label: id === undefined ? 'New journey' : initialName || 'Journey' }]} />
      <div className="d-flex align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0 me-auto">{id === undefined ? 'New journey' : `Edit ${initialName}`}</h1>
        {id !== undefined && (
          <Link className="btn btn-outline-secondary btn-sm" to={`/journeys/${id}`}>
            Back to the journey
          </Link>
        )}
        <Button onClick={() => save.mutate()} disabled={nameMissing || save.isPending}>
          Save journey
        </Button>
      </div>
      {save.isError && (
        <Alert variant="danger" aria-label="Save error">
          {save.error.message}
        </Alert>
      )}
      {newVersion && (
        <Alert variant="info" className="small">
          Saving makes version {(version ?? 0) + 1}; contacts already inside finish the version they entered.
        </Alert>
      )}
      <Field
        id="journey-name"
        label="Journey name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        invalid={nameMissing}
        error="Enter a name."
      />
      <JourneyBuilder definition={definition} onChange={setDefinition} />
      {unsaved.dialog}
    </>
  );
}
