// File paths as the native side hands them over (POSIX or Windows).

/** The last segment of a path, for both / and \ separators. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}
