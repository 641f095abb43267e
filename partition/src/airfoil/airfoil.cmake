# partition airfoil grid sources: target_sources(funcmesh_partition PRIVATE ...)
