import { expect, type APIRequestContext } from '@playwright/test';
import { adminClientHeaders } from './helpers';

/** One saved item of each kind with a page of its own, made through the API for the screen walks. */
export interface Fixtures {
  listId: number;
  templateId: number;
  formId: number;
  mailingId: number;
  contactId: number;
}

export async function makeFixtures(request: APIRequestContext, tag: string): Promise<Fixtures> {
  const headers = await adminClientHeaders(request);
  const post = async (path: string, data: unknown, extra: Record<string, string> = headers) => {
    const response = await request.post(path, { headers: extra, data });
    expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
    return (await response.json()) as { id: number };
  };
  const code = await post('/api/external-origin-code/get-or-create-crm', { name: `${tag}-code` });
  const form = await post('/api/crm-form', { name: `${tag} form`, externalOriginCodeId: code.id });
  // A visitor's signup makes the contact (with the form's origin code, so the list below has a member).
  await post(`/api/crm-form/${form.id}/submit`, { email: `${tag}.visitor@example.org` }, { 'client-short': 'e2e' });
  const signups = await request.get(`/api/external-signup?filter=${encodeURIComponent(JSON.stringify({ formId: form.id }))}`, { headers });
  const [signup] = (await signups.json()) as { contactId: number }[];
  const list = await post('/api/crm-list', { name: `${tag} list`, originCodes: [code.id] });
  const template = await post('/api/crm-mailing-template', { name: `${tag} template`, bodyHtml: '<p>Hello {{First.Name}}</p>' });
  const sender = await post('/api/sender', { name: `${tag} sender`, fromAddress: `${tag}@example.org` });
  const mailing = await post('/api/crm-mailing', {
    name: `${tag} mailing`,
    subjectLine: 'Hello',
    senderId: sender.id,
    sendTime: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
    listId: list.id,
    bodyHtml: '<p>Hello</p>',
    isDraft: true,
  });
  return { listId: list.id, templateId: template.id, formId: form.id, mailingId: mailing.id, contactId: signup.contactId };
}
