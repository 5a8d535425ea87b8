import { sessionFetch } from '@/lib/api-client';

/** The name in a Content-Disposition header (plain or RFC 5987), else the fallback. */
export function dispositionName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="([^"]+)"/i.exec(header);
  return plain?.[1] ?? fallback;
}

function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before releasing the data.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/** Offers `text` as a file download named `fileName`. */
export function saveTextFile(text: string, fileName: string, type = 'text/csv'): void {
  saveBlob(new Blob([text], { type }), fileName);
}

/**
 * Downloads a file from the API through the api client's session call (its headers and token refresh; the generated
 * client reads bodies as text, which would spoil binary exports). With `nameFromServer` the file is named as the
 * server's Content-Disposition names it, `fileName` being the fallback. A refusal throws the server's message.
 */
export async function downloadFile(url: string, fileName: string, { nameFromServer = false } = {}): Promise<void> {
  const res = await sessionFetch(url, undefined, (r) => `Could not download the file (${r.status})`);
  const name = nameFromServer ? dispositionName(res.headers.get('Content-Disposition'), fileName) : fileName;
  saveBlob(await res.blob(), name);
}
