// undici's Pool from its own file (src/api/undici-pool.ts says why): the same class as undici's `Pool`.
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}
