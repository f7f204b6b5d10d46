// Types of what Vite adds to modules (import.meta.env, `?worker` and asset imports) for the type check.
/// <reference types="vite/client" />
