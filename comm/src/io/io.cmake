# comm/io sources (parallel index files): target_sources(funcmesh_comm PRIVATE ...)
