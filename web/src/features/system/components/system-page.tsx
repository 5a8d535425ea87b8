import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { useGetAppSettings } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { DeliverabilitySettingsForm } from './deliverability-settings-form';
import { ActblueWebhookForm } from './actblue-webhook-form';
import { AppSettingsForm } from './app-settings-form';
import { PacingCard } from './pacing-card';
import { DeliveryWebhooksCard } from './delivery-webhooks-card';
import { RecountListsButton } from './recount-lists-button';
import { RevenueSettingsForm } from './revenue-settings-form';
import { SenderDomainsCard } from './sender-domains-card';
import { SendersCard } from './senders-card';
import { WorkersCard } from './workers-card';

export function SystemPage() {
  const settings = useGetAppSettings({ query: { meta: { errorMessage: 'Could not load app settings' } } });
  return (
    <>
      <h1 className="h3 mb-3">System</h1>
      <Card className="mb-4">
        <Card.Header as="h2" className="h5">
          App settings
        </Card.Header>
        <Card.Body>
          {settings.isPending ? (
            <PageSpinner label="Loading app settings" />
          ) : settings.isError ? (
            <Alert variant="danger">Could not load app settings</Alert>
          ) : (
            <AppSettingsForm key={settings.data.id} settings={settings.data} />
          )}
        </Card.Body>
      </Card>
      {settings.data && (
        <>
          <Card className="mb-4">
            <Card.Header as="h2" className="h5">
              Revenue
            </Card.Header>
            <Card.Body>
              <RevenueSettingsForm settings={settings.data} />
            </Card.Body>
          </Card>
          <Card className="mb-4">
            <Card.Header as="h2" className="h5">
              Deliverability
            </Card.Header>
            <Card.Body>
              <DeliverabilitySettingsForm key={settings.data.id} settings={settings.data} />
            </Card.Body>
          </Card>
          <Card className="mb-4">
            <Card.Header as="h2" className="h5">
              ActBlue webhook
            </Card.Header>
            <Card.Body>
              <ActblueWebhookForm settings={settings.data} />
            </Card.Body>
          </Card>
        </>
      )}
      <SendersCard />
      <SenderDomainsCard />
      <PacingCard />
      <DeliveryWebhooksCard />
      <WorkersCard />
      <Card>
        <Card.Header as="h2" className="h5">
          Maintenance
        </Card.Header>
        <Card.Body>
          <p>Recount the number of contacts in every CRM list. The count runs in the background.</p>
          <RecountListsButton />
        </Card.Body>
      </Card>
    </>
  );
}
