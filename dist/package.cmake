# Debian packages (cpack -G DEB, run by scripts/package): three, as Debian
# splits a library and the programs using it.
#   stint         the tools, stintd and stint-stepd, man pages, bash completion
#                 (where bash-completion loads it), the systemd units, examples
#   libstint0     libstint.so.0, all the tools need
#   libstint-dev  the headers, libstint.so, find_package(stint) and stint.pc
# Each package's dependencies on Debian's libraries come from dpkg-shlibdeps.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME stint)
set(CPACK_PACKAGE_VENDOR "stint maintainers")
# The address people write to about the packages: a lab that builds its own
# sets its own (cmake -DSTINT_PACKAGE_CONTACT="Lab admins <admins@lab.example.org>").
set(STINT_PACKAGE_CONTACT "stint maintainers <stint-maintainers@example.org>"
    CACHE STRING "Maintainer of the Debian packages (name <address>)")
set(CPACK_PACKAGE_CONTACT ${STINT_PACKAGE_CONTACT})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's first line of description is its own (CPACK_DEBIAN_*_DESCRIPTION).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
# Optimised with debug information (RelWithDebInfo), which CPack moves into
# -dbgsym packages of their own (.ddeb, as Debian ships it) and strips from
# the rest: CPack does both, so it must be given the files unstripped.
set(CPACK_STRIP_FILES OFF)
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tools lib dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libstint.so.0 is in the libstint0 package, which no installed package owns yet:
# dpkg-shlibdeps finds it in the build tree, and the dependency on it comes
# from the components' (CPACK_COMPONENT_TOOLS_DEPENDS).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/lib)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME stint)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION admin)
set(CPACK_COMPONENT_TOOLS_DEPENDS lib)
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "workload manager for one machine, with Slurm's commands
stint runs batch jobs, job arrays and interactive steps on one machine under
the rules a Slurm cluster applies: sbatch, squeue, scancel, sinfo, scontrol,
sacct, sacctmgr, sprio, sshare, srun and salloc behave as Slurm 22.05's, and
the run-* tools manage experiment runs as CLOVA NSML does.")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libstint${STINT_SOVERSION})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_DESCRIPTION "workload manager for one machine (shared library)
libstint holds stint's model: jobs, arrays, the queue, nodes, partitions,
priorities and accounts, kept in a local state directory.")
# ldconfig runs once after every package that installs a library, not per package.
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/dist/triggers)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libstint-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(CPACK_DEBIAN_DEV_DESCRIPTION "workload manager for one machine (development files)
The headers of libstint, its CMake package (find_package(stint)) and its
pkg-config file, to write programs that read or drive a stint installation.")

# Every package carries its copyright file and changelog, as Debian's policy asks.
foreach(component tools lib dev)
  string(TOUPPER ${component} upper)
  set(package ${CPACK_DEBIAN_${upper}_PACKAGE_NAME})
  install(FILES ${PROJECT_SOURCE_DIR}/dist/copyright
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
  install(FILES ${CMAKE_BINARY_DIR}/dist/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/dist/changelog.in ${CMAKE_BINARY_DIR}/dist/changelog @ONLY)
# gzip -9n: no name or time stamp in it, so the same source gives the same package.
execute_process(COMMAND gzip -9nf ${CMAKE_BINARY_DIR}/dist/changelog)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/stint/examples COMPONENT tools)

include(CPack)
