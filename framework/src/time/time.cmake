# framework/time sources (owned by the time-schemes work): target_sources(funcmesh_framework PRIVATE ...)
