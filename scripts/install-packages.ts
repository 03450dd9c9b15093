// Installs, as root with apt, every Debian package the tests and `npm run cluster` use that is missing (Chromium,
// HAProxy, PgBouncer, Patroni, etcd, Redis). Each test run installs what it needs by itself; CI runs this first, so
// that its parallel jobs do not all reach for apt at once.
import { ensurePrograms, SYSTEM_PROGRAMS } from './cluster/packages';

ensurePrograms(SYSTEM_PROGRAMS);
