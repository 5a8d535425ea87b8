import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useQueryClient } from '@tanstack/react-query';
import { getGetAppSettingsQueryKey, useUpdateAppSettings } from '@/api/gen';
import type { AppSettings } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { notifySuccess } from '@/lib/notifications';

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

/** Every IANA zone the browser knows; the server checks the one chosen against Postgres's list. */
const zones = (): string[] => {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'UTC'];
};

/**
 * How the client's money is read: its time zone and fiscal year (days, months and years of every revenue figure),
 * the origin codes new donors get, the refcode patterns and the attribution rules.
 */
export function RevenueSettingsForm({ settings }: { settings: AppSettings }) {
  const queryClient = useQueryClient();
  const [timeZone, setTimeZone] = useState(settings.timeZone);
  const [fiscalYearStart, setFiscalYearStart] = useState(settings.fiscalYearStart);
  const [actblueOriginCode, setActblueOriginCode] = useState(settings.actblueOriginCode);
  const [winredOriginCode, setWinredOriginCode] = useState(settings.winredOriginCode);
  const [refcodePattern, setRefcodePattern] = useState(settings.refcodePattern);
  const [mailingRefcodePattern, setMailingRefcodePattern] = useState(settings.mailingRefcodePattern);
  const [windowText, setWindowText] = useState(String(settings.attributionWindowDays));
  const [domains, setDomains] = useState(settings.donationDomains.join('\n'));
  const update = useUpdateAppSettings({
    mutation: {
      meta: { errorMessage: 'Could not update revenue settings' },
      onSuccess: (saved) => {
        queryClient.setQueryData(getGetAppSettingsQueryKey(), saved);
        // Days, codes and attribution may all read differently now.
        void queryClient.invalidateQueries();
        notifySuccess('Revenue settings saved');
      },
    },
  });

  const windowDays = Number(windowText);
  const windowInvalid = windowText.trim() === '' || !Number.isInteger(windowDays) || windowDays < 0 || windowDays > 90;
  const blank = [actblueOriginCode, winredOriginCode, refcodePattern, mailingRefcodePattern].some((v) => v.trim() === '');
  const invalid = windowInvalid || blank;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    update.mutate({
      id: settings.id,
      data: {
        timeZone,
        fiscalYearStart,
        actblueOriginCode: actblueOriginCode.trim(),
        winredOriginCode: winredOriginCode.trim(),
        refcodePattern: refcodePattern.trim(),
        mailingRefcodePattern: mailingRefcodePattern.trim(),
        attributionWindowDays: windowDays,
        donationDomains: domains.split(/[\s,]+/).map((d) => d.trim()).filter(Boolean),
      },
    });
  };

  const text = (id: string, label: string, value: string, set: (v: string) => void, help?: string) => (
    <Field
      id={id}
      label={label}
      className="col-md-6 mb-3"
      value={value}
      onChange={(e) => set(e.target.value)}
      invalid={value.trim() === ''}
      error="You must enter a value"
      hint={help && <Form.Text>{help}</Form.Text>}
    />
  );

  return (
    <Form onSubmit={onSubmit} noValidate aria-label="Revenue settings">
      <Row>
        <Form.Group as={Col} md={6} className="mb-3" controlId="revenue-time-zone">
          <Form.Label>Time zone</Form.Label>
          <Form.Select value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
            {[...new Set([timeZone, ...zones()])].map((z) => (
              <option key={z}>{z}</option>
            ))}
          </Form.Select>
          <Form.Text>Gifts are counted on the day they were made in this zone.</Form.Text>
        </Form.Group>
        <Form.Group as={Col} md={6} className="mb-3" controlId="revenue-fiscal-year">
          <Form.Label>Fiscal year starts in</Form.Label>
          <Form.Select value={fiscalYearStart} onChange={(e) => setFiscalYearStart(Number(e.target.value))}>
            {MONTHS.map((m, i) => (
              <option key={m} value={i + 1}>
                {m}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </Row>
      <Row>
        {text('revenue-actblue-origin', 'Origin code for new ActBlue donors', actblueOriginCode, setActblueOriginCode)}
        {text('revenue-winred-origin', 'Origin code for new WinRed donors', winredOriginCode, setWinredOriginCode)}
      </Row>
      <Row>
        {text(
          'revenue-refcode-pattern',
          'Refcode pattern',
          refcodePattern,
          setRefcodePattern,
          'Parts: {channel}, {date:yyyymmdd}, {campaign}, {variant}. Saving a new pattern reads every stored code again.',
        )}
        {text(
          'revenue-mailing-refcode-pattern',
          'Refcode for mailing links',
          mailingRefcodePattern,
          setMailingRefcodePattern,
          'Given to donation links in mailings that carry none: {yyyymmdd}, {mailing}, {variant}.',
        )}
      </Row>
      <Row>
        <Field
          id="revenue-attribution-window"
          label="Click attribution window (days)"
          className="col-md-6 mb-3"
          type="number"
          min={0}
          max={90}
          value={windowText}
          onChange={(e) => setWindowText(e.target.value)}
          invalid={windowInvalid}
          error="Enter a whole number of days from 0 to 90"
          hint={<Form.Text>A gift without a mailing refcode goes to the mailing last clicked within this many days.</Form.Text>}
        />
        <Form.Group as={Col} md={6} className="mb-3" controlId="revenue-donation-domains">
          <Form.Label>Other donation domains</Form.Label>
          <Form.Control as="textarea" rows={2} value={domains} onChange={(e) => setDomains(e.target.value)} />
          <Form.Text>One per line. Links to these hosts get a refcode, as ActBlue and WinRed links do.</Form.Text>
        </Form.Group>
      </Row>
      <Button type="submit" disabled={update.isPending || invalid}>
        Save revenue settings
      </Button>
    </Form>
  );
}
