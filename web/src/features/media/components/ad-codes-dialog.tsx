import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useQueryClient } from '@tanstack/react-query';
import { useListMediaAds, useSearchOriginCodes, useSetMediaAdCodes } from '@/api/gen';
import type { MediaRow } from '@/api/gen/model';
import { notifySuccess } from '@/lib/notifications';

/** Refcodes typed as a list: commas, spaces or new lines between them. */
export const parseRefcodes = (text: string): string[] => [...new Set(text.split(/[\s,]+/).filter(Boolean))];

/** Sets what ties an ad to money (the refcodes of its links) and people (the origin codes of its forms). */
export function AdCodesDialog({ ad, onClose }: { ad: MediaRow | null; onClose: () => void }) {
  const ads = useListMediaAds({ query: { enabled: ad !== null } });
  const origins = useSearchOriginCodes({}, { query: { enabled: ad !== null } });
  const current = ads.data?.find((a) => a.id === ad?.id);
  const [draft, setDraft] = useState<{ id: number; refcodes: string; origins: number[] } | null>(null);
  const queryClient = useQueryClient();
  const save = useSetMediaAdCodes({
    mutation: {
      meta: { errorMessage: 'Could not save the codes' },
      onSuccess: () => {
        notifySuccess('Codes saved');
        void queryClient.invalidateQueries();
        close();
      },
    },
  });
  const editing =
    draft && draft.id === ad?.id
      ? draft
      : current
        ? { id: current.id, refcodes: current.refcodes.join(', '), origins: current.originCodeIds }
        : null;
  function close() {
    setDraft(null);
    onClose();
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    save.mutate({ id: editing.id, data: { refcodes: parseRefcodes(editing.refcodes), originCodeIds: editing.origins } });
  };
  return (
    <Modal show={ad !== null} onHide={close} centered aria-labelledby="ad-codes-title">
      <Form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="ad-codes-title">{ad?.name ?? 'Ad'}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {editing ? (
            <>
              <Form.Group className="mb-3" controlId="ad-refcodes">
                <Form.Label>Refcodes</Form.Label>
                <Form.Control
                  as="textarea"
                  rows={2}
                  value={editing.refcodes}
                  onChange={(e) => setDraft({ ...editing, refcodes: e.target.value })}
                />
                <Form.Text>The refcodes of the ad’s donation links; gifts with them count as the ad’s.</Form.Text>
              </Form.Group>
              <Form.Group controlId="ad-origin-codes">
                <Form.Label>Origin codes</Form.Label>
                <Form.Select
                  multiple
                  value={editing.origins.map(String)}
                  onChange={(e) =>
                    setDraft({ ...editing, origins: [...e.target.selectedOptions].map((o) => Number(o.value)) })
                  }
                >
                  {(origins.data ?? []).map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
                </Form.Select>
                <Form.Text>Contacts who signed up through the ad’s forms.</Form.Text>
              </Form.Group>
            </>
          ) : (
            <p>Loading…</p>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={!editing || save.isPending}>
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
