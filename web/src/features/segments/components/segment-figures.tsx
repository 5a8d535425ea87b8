import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { exportSegment, useGetSegmentAnalytics, useListSegmentMembers, useSaveSegmentAsList } from '@/api/gen';
import type { HpcBandView, SegmentMember, SegmentView } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { StatTiles } from '@/components/stat-tiles';
import { formatMoney } from '@/lib/money';
import { notifyCrmSuccess, notifyError } from '@/lib/notifications';
import { saveTextFile } from '@/lib/download';
import { formatDate } from '@/lib/format';
import { columnsFor, DataTable } from '@/components/data-table';

const PAGE_SIZE = 25;

const bandCol = columnsFor<HpcBandView>();
const bandColumns = bandCol.columns([
  bandCol.display({
    id: 'band',
    header: 'HPC',
    cell: ({ row: { original: b } }) => `${formatMoney(b.min)}${b.max ? ` – ${formatMoney(b.max)}` : '+'}`,
  }),
  bandCol.accessor('donors', { header: 'Donors', cell: (info) => info.getValue().toLocaleString() }),
  bandCol.accessor('medianHpc', { header: 'Median HPC', cell: (info) => formatMoney(info.getValue()) }),
  bandCol.accessor('asks', { header: 'Asks (×1, ×1.5, ×2)', cell: (info) => info.getValue().map(formatMoney).join(', ') }),
]);

const memberCol = columnsFor<SegmentMember>();
const memberColumns = memberCol.columns([
  memberCol.accessor('email', {
    header: 'Email',
    cell: (info) => <Link to={`/contacts/${info.row.original.contactId}`}>{info.getValue()}</Link>,
  }),
  memberCol.display({
    id: 'name',
    header: 'Name',
    cell: ({ row: { original: m } }) => `${m.firstName} ${m.lastName}`.trim(),
  }),
  memberCol.accessor('hpc', { header: 'HPC', cell: (info) => formatMoney(info.getValue()) }),
  memberCol.accessor('lastGiftAt', {
    header: 'Last gift',
    cell: (info) => {
      const at = info.getValue();
      return at ? formatDate(at) : '—';
    },
  }),
]);

/** A saved segment's figures, heat map, HPC asks, member sample and actions. */
export function SegmentFigures({ segment }: { segment: SegmentView }) {
  const analytics = useGetSegmentAnalytics(segment.id, {
    query: { meta: { errorMessage: 'Could not load the figures' } },
  });
  const [page, setPage] = useState(1);
  const members = useListSegmentMembers(
    segment.id,
    { page, pageSize: PAGE_SIZE },
    { query: { meta: { errorMessage: 'Could not load members' } } },
  );
  const [listName, setListName] = useState(`${segment.name} list`);
  const save = useSaveSegmentAsList({
    mutation: {
      meta: { errorMessage: 'Could not save the list' },
      onSuccess: () => notifyCrmSuccess('List created'),
    },
  });
  const exportCsv = async () => {
    try {
      saveTextFile((await exportSegment(segment.id)) ?? '', `${segment.name}.csv`, 'text/csv');
    } catch (error) {
      notifyError(error);
    }
  };
  const a = analytics.data;
  const cells = a?.rfCells ?? [];
  const max = Math.max(1, ...cells.map((c) => c.members));
  const total = members.data?.total ?? 0;
  return (
    <>
      <StatTiles
        label="Segment figures"
        tiles={[
          { label: 'Size', value: (a?.size ?? segment.size).toLocaleString() },
          { label: 'Revenue last 12 months', value: formatMoney(a?.revenue12m) },
          { label: 'Gifts last 12 months', value: (a?.gifts12m ?? 0).toLocaleString() },
          { label: 'Average gift', value: formatMoney(a?.averageGift) },
        ]}
      />
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Button size="sm" variant="outline-primary" onClick={() => void exportCsv()}>
          CSV export
        </Button>
        <Form
          className="d-flex gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ id: segment.id, data: { name: listName } });
          }}
        >
          <Form.Control size="sm" aria-label="List name" value={listName} onChange={(e) => setListName(e.target.value)} />
          <Button size="sm" type="submit" variant="outline-primary" disabled={save.isPending || listName.trim() === ''}>
            Save as list
          </Button>
        </Form>
        {save.data && <Link to={`/crm-list-detail/${save.data.listId}`}>Open the list</Link>}
        <Link className="btn btn-primary btn-sm" to={`/crm-mailing-add?segment=${segment.id}`}>
          Use as audience
        </Link>
      </div>
      <div className="row g-3 mb-3">
        <div className="col-lg-6">
          <Card>
            <Card.Header>Recency × frequency</Card.Header>
            <Card.Body>
              <EChart
                label="Members by RFM recency and frequency score"
                height={280}
                option={{
                  tooltip: { position: 'top' },
                  grid: { left: 50, right: 20, top: 10, bottom: 60 },
                  xAxis: { type: 'category', name: 'Frequency', data: ['1', '2', '3', '4', '5'] },
                  yAxis: { type: 'category', name: 'Recency', data: ['1', '2', '3', '4', '5'] },
                  visualMap: { min: 0, max, calculable: true, orient: 'horizontal', left: 'center', bottom: 0 },
                  series: [
                    {
                      type: 'heatmap',
                      data: cells.map((c) => [c.frequency - 1, c.recency - 1, c.members]),
                      label: { show: true },
                    },
                  ],
                }}
              />
            </Card.Body>
          </Card>
        </div>
        <div className="col-lg-6">
          <Card>
            <Card.Header>Highest previous contribution and suggested asks</Card.Header>
            <DataTable
              label="HPC distribution"
              columns={bandColumns}
              data={a?.hpcBands ?? []}
              numeric={['donors', 'medianHpc', 'asks']}
              striped={false}
              className="mb-0"
            />
          </Card>
        </div>
      </div>
      <Card>
        <Card.Header>Members ({total.toLocaleString()})</Card.Header>
        <DataTable
          label="Members"
          columns={memberColumns}
          data={members.data?.members ?? []}
          numeric={['hpc']}
          striped={false}
          hover
          className="mb-0"
        />
        <Card.Footer className="d-flex gap-2 align-items-center">
          <Button size="sm" variant="outline-secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous
          </Button>
          <span className="small">Page {page}</span>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={page * PAGE_SIZE >= total}
            onClick={() => setPage((p) => p + 1)}
          >
            Next
          </Button>
        </Card.Footer>
      </Card>
    </>
  );
}
