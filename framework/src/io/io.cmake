# framework/io sources: target_sources(funcmesh_framework PRIVATE ...)
