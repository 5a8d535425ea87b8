import { useLocation } from 'react-router';
import { FormViewer } from '@/features/crm-forms/components/form-viewer';
import { parseViewerPath } from '@/features/crm-forms/utils';

/** The public form viewer (no sign-in, no app shell): `/form-viewer;id={id};client={client}`. */
export function Component() {
  const { pathname } = useLocation();
  const { id, client } = parseViewerPath(pathname);
  return <FormViewer key={`${id}-${client}`} id={id} client={client} />;
}
