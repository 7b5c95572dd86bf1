// The globals the Wails runtime installs in the page. Only src/lib/api reads them.

export {};

declare global {
  interface Window {
    /** Bound Go methods, set by the Wails runtime (window.go.main.App.Search…). */
    go?: { main?: { App?: Record<string, unknown> } };
    /** Wails JS runtime (events, dialogs, drag and drop). */
    runtime?: Record<string, unknown>;
    wails?: { flags?: { enableWailsDragAndDrop?: boolean } };
    /** WebView2 (Windows) message channel: present only in the native window. */
    chrome?: { webview?: { postMessage?: unknown } };
    /** WebKit (macOS, Linux) message channel: present only in the native window. */
    webkit?: { messageHandlers?: { external?: { postMessage?: unknown } } };
  }
}
