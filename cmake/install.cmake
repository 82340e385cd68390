# install(): the libraries, their headers, the two binaries, a CMake package
# (find_package(collide CONFIG): collide::core, collide::import,
# collide::client) and pkg-config files (collide-core, collide). Included by
# the top-level CMakeLists.txt after every target exists. Consumers:
# docs/install.md; tested from outside the tree by tests/consumers/cmake/
# (cmake_consumer in tests/CMakeLists.txt).
include(CMakePackageConfigHelpers)

set(COLLIDE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/collide)
# The generated collide.v1 / google.rpc / grpc.health.v1 headers go under
# include/collide/proto, so that their google/ and grpc/ folders cannot meet
# another package's in a shared include directory.
set(COLLIDE_INSTALL_PROTO_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/collide/proto)

set(collide_export_targets collide_core)
set_target_properties(collide_core PROPERTIES EXPORT_NAME core)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/generated/include/collide/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/collide)
# pkg-config: Requires of the full package (static libraries need their
# dependencies' flags); collide-core has none.
set(collide_pc_libs "-lcollide_core")
set(collide_pc_requires "")

if(TARGET collide_import)
  set_target_properties(collide_import PROPERTIES EXPORT_NAME import)
  list(APPEND collide_export_targets collide_import)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/import/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(collide_pc_libs "-lcollide_import ${collide_pc_libs}")
  list(APPEND collide_pc_requires absl_status absl_statusor absl_strings absl_str_format absl_flat_hash_map
    assimp zlib)
endif()

if(TARGET collide_client)
  # collide::client's static library needs convert and proto at link time
  # (proto's headers too: collide/client_proto.h exposes the messages).
  set_target_properties(collide_proto PROPERTIES EXPORT_NAME proto)
  set_target_properties(collide_convert PROPERTIES EXPORT_NAME convert)
  set_target_properties(collide_client PROPERTIES EXPORT_NAME client)
  list(APPEND collide_export_targets collide_proto collide_convert collide_client)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/client/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${PROJECT_BINARY_DIR}/proto/ DESTINATION ${COLLIDE_INSTALL_PROTO_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.pb.h" PATTERN "CMakeFiles" EXCLUDE)
  # The .proto files themselves, for generating clients in other languages.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/proto/ DESTINATION ${CMAKE_INSTALL_DATADIR}/collide/proto
    FILES_MATCHING PATTERN "*.proto")
  set(collide_pc_libs "-lcollide_client -lcollide_convert -lcollide_proto ${collide_pc_libs}")
  list(APPEND collide_pc_requires grpc++ protobuf absl_time)
endif()
if(TARGET collide-server)
  install(TARGETS collide-server collide RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(TARGETS ${collide_export_targets} EXPORT collideTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT collideTargets NAMESPACE collide:: DESTINATION ${COLLIDE_INSTALL_CMAKEDIR})

if(TARGET collide_import)
  set(COLLIDE_HAS_IMPORT ON)
else()
  set(COLLIDE_HAS_IMPORT OFF)
endif()
if(TARGET collide_client)
  set(COLLIDE_HAS_CLIENT ON)
else()
  set(COLLIDE_HAS_CLIENT OFF)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/collideConfig.cmake.in
  ${PROJECT_BINARY_DIR}/generated/collideConfig.cmake
  INSTALL_DESTINATION ${COLLIDE_INSTALL_CMAKEDIR})
# 0.x: a minor release may break the API (CHANGELOG.md), so only the same
# major.minor satisfies a request.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/generated/collideConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/generated/collideConfig.cmake
  ${PROJECT_BINARY_DIR}/generated/collideConfigVersion.cmake
  DESTINATION ${COLLIDE_INSTALL_CMAKEDIR})

# pkg-config files that hold wherever the prefix is moved (--prefix at install
# time): ${pcfiledir} is the folder of the .pc file.
file(RELATIVE_PATH collide_pc_prefix_from_pcdir /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" collide_pc_prefix_from_pcdir "${collide_pc_prefix_from_pcdir}")
list(JOIN collide_pc_requires " " collide_pc_requires)
foreach(pc collide collide-core)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/generated/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/generated/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
