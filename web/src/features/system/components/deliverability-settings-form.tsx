import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { getGetAppSettingsQueryKey, useUpdateAppSettings } from '@/api/gen';
import type { AppSettings } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { notifySuccess } from '@/lib/notifications';

const wholeIn = (text: string, min: number, max: number): boolean => {
  const n = Number(text);
  return /^\d+$/.test(text.trim()) && n >= min && n <= max;
};
const percentOk = (text: string): boolean => {
  const t = text.trim();
  return /^\d+(\.\d{1,3})?$/.test(t) && Number(t) > 0 && Number(t) <= 100;
};

/** When soft bounces suppress an address, and the limits past which a send pauses itself. */
export function DeliverabilitySettingsForm({ settings }: { settings: AppSettings }) {
  const queryClient = useQueryClient();
  const [limit, setLimit] = useState(String(settings.softBounceLimit));
  const [days, setDays] = useState(String(settings.softBounceDays));
  const [after, setAfter] = useState(String(settings.guardAfterDelivered));
  const [complaints, setComplaints] = useState(settings.complaintPausePercent);
  const [bounces, setBounces] = useState(settings.hardBouncePausePercent);
  const update = useUpdateAppSettings({
    mutation: {
      meta: { errorMessage: 'Could not save the deliverability settings' },
      onSuccess: (saved) => {
        queryClient.setQueryData(getGetAppSettingsQueryKey(), saved);
        notifySuccess('Deliverability settings saved');
      },
    },
  });
  const bad = {
    limit: !wholeIn(limit, 1, 100),
    days: !wholeIn(days, 1, 365),
    after: !wholeIn(after, 1, 10_000_000),
    complaints: !percentOk(complaints),
    bounces: !percentOk(bounces),
  };
  const anyBad = Object.values(bad).some(Boolean);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (anyBad) return;
    update.mutate({
      id: settings.id,
      data: {
        softBounceLimit: Number(limit),
        softBounceDays: Number(days),
        guardAfterDelivered: Number(after),
        complaintPausePercent: complaints.trim(),
        hardBouncePausePercent: bounces.trim(),
      },
    });
  };
  return (
    <Form onSubmit={onSubmit} noValidate>
      <div className="row">
        <div className="col-md-6">
          <Field
            id="deliverability-soft-limit"
            label="Soft bounces that suppress an address"
            inputMode="numeric"
            value={limit}
            invalid={bad.limit}
            error="A whole number from 1 to 100"
            onChange={(e) => setLimit(e.target.value)}
          />
        </div>
        <div className="col-md-6">
          <Field
            id="deliverability-soft-days"
            label="Within (days)"
            inputMode="numeric"
            value={days}
            invalid={bad.days}
            error="A whole number from 1 to 365"
            onChange={(e) => setDays(e.target.value)}
          />
        </div>
      </div>
      <Field
        id="deliverability-guard-after"
        label="Judge a send after this many delivered"
        inputMode="numeric"
        value={after}
        invalid={bad.after}
        error="A whole number from 1 to 10,000,000"
        hint="Until then the rates are too small a sample to pause on."
        onChange={(e) => setAfter(e.target.value)}
      />
      <div className="row">
        <div className="col-md-6">
          <Field
            id="deliverability-complaint-limit"
            label="Pause when complaints pass (%)"
            inputMode="decimal"
            value={complaints}
            invalid={bad.complaints}
            error="A percent above 0 and at most 100"
            hint="Of delivered. Gmail blocks senders near 0.3 %."
            onChange={(e) => setComplaints(e.target.value)}
          />
        </div>
        <div className="col-md-6">
          <Field
            id="deliverability-bounce-limit"
            label="Pause when hard bounces pass (%)"
            inputMode="decimal"
            value={bounces}
            invalid={bad.bounces}
            error="A percent above 0 and at most 100"
            hint="Of sent."
            onChange={(e) => setBounces(e.target.value)}
          />
        </div>
      </div>
      <Button type="submit" disabled={update.isPending || anyBad}>
        Save deliverability settings
      </Button>
    </Form>
  );
}
