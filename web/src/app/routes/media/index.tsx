import { MediaPage } from '@/features/media/components/media-page';

export function Component() {
  return <MediaPage />;
}
