// Go's encoding/json carries []byte as standard base64; Wails passes bound
// method arguments through it, so file bytes travel as a base64 string.

const CHUNK = 0x8000; // String.fromCharCode takes at most ~64k arguments safely

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

export async function fileToBase64(file: Blob): Promise<string> {
  return bytesToBase64(new Uint8Array(await file.arrayBuffer()));
}
