import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { enrolInJourney, getGetJourneyFiguresQueryKey } from '@/api/gen';
import { notifyCrmSuccess } from '@/lib/notifications';
import { Picker } from './pickers';

/** A one-time push: everyone on a list or in a segment enters the journey now. */
export function EnrolCard({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const [from, setFrom] = useState<'list' | 'segment'>('list');
  const [chosen, setChosen] = useState(0);
  const enrol = useMutation({
    meta: { errorMessage: 'Could not enrol the contacts' },
    mutationFn: () => enrolInJourney(id, from === 'list' ? { list_id: chosen } : { segment_id: chosen }),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: getGetJourneyFiguresQueryKey(id) });
      notifyCrmSuccess(`${result.enrolled.toLocaleString()} contacts enrolled`);
    },
  });
  return (
    <Card className="my-3">
      <Card.Header className="fw-semibold">Enrol now</Card.Header>
      <Card.Body>
        <Form.Group className="mb-2">
          {(['list', 'segment'] as const).map((k) => (
            <Form.Check
              inline
              key={k}
              type="radio"
              id={`enrol-${k}`}
              name="enrol-from"
              label={k === 'list' ? 'A list' : 'A segment'}
              checked={from === k}
              onChange={() => {
                setFrom(k);
                setChosen(0);
              }}
            />
          ))}
        </Form.Group>
        <Picker
          id="enrol-choice"
          label={from === 'list' ? 'List' : 'Segment'}
          kind={from === 'list' ? 'lists' : 'segments'}
          value={chosen}
          onChange={setChosen}
          flagMissing={false}
        />
        <Button size="sm" disabled={!(chosen > 0) || enrol.isPending} onClick={() => enrol.mutate()}>
          Enrol
        </Button>
      </Card.Body>
    </Card>
  );
}
