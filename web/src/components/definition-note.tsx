import { EMAIL_REVENUE_DEFINITION } from '@/lib/definitions';

/** The e-mail revenue definition under a page's figures, with what this page adds to it, if anything. */
export function EmailRevenueNote({ extra }: { extra?: string }) {
  return (
    <p className="small text-body-secondary mb-2" data-testid="email-revenue-note">
      {EMAIL_REVENUE_DEFINITION}
      {extra ? ` ${extra}` : ''}
    </p>
  );
}
