import Card from 'react-bootstrap/Card';

export interface StatTile {
  label: string;
  value: string;
  hint?: string;
}

/** A row of figures, each a small card with its label above its value. */
export function StatTiles({ tiles, label }: { tiles: StatTile[]; label: string }) {
  return (
    <ul className="list-unstyled row row-cols-2 row-cols-md-3 row-cols-xl-6 g-2 mb-3" aria-label={label}>
      {tiles.map((tile) => (
        <li key={tile.label} className="col">
          <Card className="h-100">
            <Card.Body className="py-2 px-3">
              <div className="small text-body-secondary">{tile.label}</div>
              <div className="fs-5 fw-semibold figure-value" data-testid={`tile-${tile.label}`}>
                {tile.value}
              </div>
              {tile.hint && <div className="small text-body-secondary">{tile.hint}</div>}
            </Card.Body>
          </Card>
        </li>
      ))}
    </ul>
  );
}
