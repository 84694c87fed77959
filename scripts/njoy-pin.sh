# Sourced by setup-njoy.sh, make-ace-library.sh and build.sh: the NJOY2016 commit that turns ENDF
# evaluations into keff's ACE library, and where setup puts NJOY and the library. One place, so that setup
# and build agree. NJOY2016 has no Debian or PyPI package, hence a commit built from source.
keff_njoy_commit=3c9873d498d22a88f5125a4840de48bcbfa930a2
keff_njoy_upstream=https://github.com/njoy/NJOY2016
# sha256 of the source archive of that commit (top folder njoy2016-3c9873d/) kept for machines without
# internet, ../shared/deps/njoy2016-3c9873d.tar.gz beside a checkout (KEFF_NJOY_ARCHIVE).
keff_njoy_archive_sha256=0823cbc053eb813278b57c8686416b85f2ec0f3753df20797cf72d3f8a79464c
# Outside the repository, one folder per commit; KEFF_NJOY_PREFIX overrides it.
keff_njoy_prefix=${KEFF_NJOY_PREFIX:-/opt/keff/njoy2016-${keff_njoy_commit:0:7}}
# The ACE library setup makes: one type-1 table per evaluation at 293.6 K and an xsdir.
# KEFF_ACE_PREFIX overrides it; keff finds it through its xsdir (KEFF_ACE_LIBRARY or [nuclear_data]).
keff_ace_temperature=293.6
keff_ace_prefix=${KEFF_ACE_PREFIX:-/opt/keff/ace-endf-293.6K}
