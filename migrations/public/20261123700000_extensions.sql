-- Extensions every client schema may use live in one schema of their own, `extensions`, created once here (tenant
-- migrations never create or name objects outside their client's schema). Tenant migrations run with the search
-- path `<client schema>, extensions`, so an operator class such as gin_trgm_ops resolves without a schema name.
create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;
