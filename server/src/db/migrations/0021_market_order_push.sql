-- Placeholder, filled by issue 28's work on this call (one round trip a money call).
SELECT 1;
