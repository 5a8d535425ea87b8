import { useGetMailingFirst48Hours, useGetMailingLinks } from '@/api/gen';
import type { HourCounts, LinkClicks } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount } from '@/lib/format';
import { columnsFor, DataTable } from '@/components/data-table';

/** The chart of human opens and clicks per hour over the first 48 hours. */
export function first48HoursOption(hours: HourCounts[]) {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['Opens', 'Clicks'] },
    grid: { left: 40, right: 16, top: 32, bottom: 32 },
    xAxis: { type: 'category', name: 'Hour', data: hours.map((h) => `${h.hour}h`) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: 'Opens', type: 'line', smooth: true, data: hours.map((h) => h.opens) },
      { name: 'Clicks', type: 'bar', data: hours.map((h) => h.clicks) },
    ],
  };
}

const linkCol = columnsFor<LinkClicks>();
const linkColumns = linkCol.columns([
  linkCol.accessor('url', { header: 'Link' }),
  linkCol.accessor('clicks', { header: 'Clicks', cell: (info) => formatCount(info.getValue()) }),
  linkCol.accessor('clickers', { header: 'People', cell: (info) => formatCount(info.getValue()) }),
]);

/** A sent mailing's clicks per link and its opens and clicks over the first 48 hours. */
export function MailingActivity({ id }: { id: number }) {
  const links = useGetMailingLinks(id, { query: { meta: { errorMessage: 'Could not load the links' } } });
  const hours = useGetMailingFirst48Hours(id, { query: { meta: { errorMessage: 'Could not load the timeline' } } });
  return (
    <>
      <h3 className="h6">Opens and clicks, first 48 hours</h3>
      {hours.isPending ? (
        <PageSpinner label="Loading the timeline" />
      ) : (
        <EChart
          option={first48HoursOption(hours.data ?? [])}
          label="Human opens and clicks per hour over the first 48 hours"
          height={260}
        />
      )}
      <h3 className="h6 mt-3">Clicks per link</h3>
      {links.isPending ? (
        <PageSpinner label="Loading links" />
      ) : !links.data?.length ? (
        <p className="text-body-secondary small">No clicks yet.</p>
      ) : (
        <DataTable
          label="Clicks per link"
          columns={linkColumns}
          data={links.data}
          numeric={['clicks', 'clickers']}
          cellClassName={{ url: 'text-break' }}
          striped={false}
        />
      )}
    </>
  );
}
