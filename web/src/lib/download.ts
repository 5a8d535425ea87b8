import { getClientId, getClientShort, getToken } from '@/lib/session';

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
 * Downloads a file from the API with the session's headers (the generated client reads bodies as text, which
 * would spoil binary exports). With `nameFromServer` the file is named as the server's Content-Disposition names
 * it, `fileName` being the fallback. A refusal throws the server's message.
 */
export async function downloadFile(url: string, fileName: string, { nameFromServer = false } = {}): Promise<void> {
  const headers = new Headers();
  const token = getToken();
  const short = getClientShort();
  const id = getClientId();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (short) headers.set('client-short', short);
  if (id) headers.set('client-id', id);
  const res = await fetch(url, { headers });
  if (!res.ok) {
    let message = `Could not download the file (${res.status})`;
    try {
      const body = (await res.json()) as { message?: string };
      if (body.message) message = body.message;
    } catch {
      // not JSON: keep the status
    }
    throw new Error(message);
  }
  const name = nameFromServer ? dispositionName(res.headers.get('Content-Disposition'), fileName) : fileName;
  saveBlob(await res.blob(), name);
}
