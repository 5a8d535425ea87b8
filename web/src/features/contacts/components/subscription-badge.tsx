import Badge from 'react-bootstrap/Badge';

const VARIANTS: Record<string, string> = { subscribed: 'success', unsubscribed: 'secondary', bounced: 'danger' };

/** A contact's subscription state (subscribed, unsubscribed or bounced). */
export function SubscriptionBadge({ subscription }: { subscription: string }) {
  const label = subscription ? subscription[0].toUpperCase() + subscription.slice(1) : '—';
  return <Badge bg={VARIANTS[subscription] ?? 'light'} text={VARIANTS[subscription] ? undefined : 'dark'}>{label}</Badge>;
}
