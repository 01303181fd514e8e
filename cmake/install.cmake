# `cmake --install build --prefix P` installs what an out-of-tree project
# needs to write a plugin or embed the simulator (docs/plugins.md):
#   P/include/dtrcheck/*.h          the public extension API
#   P/include/sim/*.h               the simulator's headers (for embedding)
#   P/include/base/*.h, memory/*.h  the headers they include
#   P/lib/libdtrsim.a               the simulator core (with libdtrbase.a,
#                                   libdtrmemory.a below it)
#   P/bin/dtrcheck                  the CLI
#   P/lib/dtrcheck/dtrcheck_cbc.so  its integer-program solver, loaded on use
#   P/lib/cmake/dtrcheck/           the package: find_package(dtrcheck) gives
#                                   dtrcheck::sim (core + headers) and
#                                   dtrcheck::api (the public headers alone,
#                                   all a plugin needs).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(dtrapi INTERFACE)
target_include_directories(dtrapi INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(dtrapi PROPERTIES EXPORT_NAME api)
set_target_properties(dtrsim PROPERTIES EXPORT_NAME sim)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dtrcheck
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sim/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sim
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/base/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/base
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/memory/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/memory
  FILES_MATCHING PATTERN "*.h")
set_target_properties(dtrmemory PROPERTIES EXPORT_NAME memory)
set_target_properties(dtrbase PROPERTIES EXPORT_NAME base)
install(TARGETS dtrsim dtrbase dtrmemory dtrapi EXPORT dtrcheckTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS dtrcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS dtrcheck_cbc LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/dtrcheck)
install(EXPORT dtrcheckTargets NAMESPACE dtrcheck::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dtrcheck)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dtrcheckConfig.cmake.in
  ${CMAKE_BINARY_DIR}/dtrcheckConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dtrcheck)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dtrcheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dtrcheckConfig.cmake
  ${CMAKE_BINARY_DIR}/dtrcheckConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dtrcheck)
