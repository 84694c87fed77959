#!/usr/bin/env python3
"""An ACE library (its MCNP-style xsdir) converted to OpenMC's HDF5 format, so that OpenMC reads exactly the
tables keff reads for an input with `[nuclear_data] ace = true`: the reference side of keff's
evaluated-data examples (examples/evaluated/, run in OpenMC by perf/openmc_ce_model.py).

The xsdir is read as keff reads it (io/library/ace/xsdir.hpp): the entries of its `directory` section (an
entry may continue on lines ending in '+'), files relative to its `datapath=` line, else to its own
folder. Every continuous-energy neutron table ("c" class) becomes OUT_DIR/NAME.h5 under OpenMC's name
(92235.00c: U235), tables of one nuclide at several temperatures in one file, and OUT_DIR/cross_sections.xml
lists them all. Type-2 (binary) tables are refused, as keff refuses them. The one thing added to a table
is MT 4 where it lacks it: the sum of its MT 51-91 (OpenMC's sum rule, which would take an MT 50 too),
which OpenMC's `(n,level)` tally score (total inelastic scattering) reads; as a redundant reaction it takes
no part in transport.

    perf/openmc_ace_library.py XSDIR OUT_DIR
"""
import argparse
import os
from pathlib import Path

import openmc.data


def xsdir_neutron_tables(xsdir):
    """(ZAID, ACE file) of every continuous-energy neutron entry of an xsdir, in its order."""
    xsdir = Path(xsdir)
    datapath, entries, pending, in_directory = xsdir.parent, [], "", False
    for line in xsdir.read_text().splitlines():
        if not in_directory:
            stripped = line.strip()
            if stripped.lower().startswith("datapath="):
                datapath = xsdir.parent / stripped[len("datapath="):].strip()
            in_directory = stripped.lower().startswith("directory")
            continue
        if line.rstrip().endswith("+"):
            pending += line.rstrip()[:-1] + " "
            continue
        words, pending = (pending + line).split(), ""
        if len(words) < 7 or not words[0].endswith("c"):
            continue
        if words[4] != "1":
            raise SystemExit(f"{xsdir}: {words[0]} is a type-{words[4]} table; only type 1 (ASCII) is readable")
        entries.append((words[0], datapath / words[2]))
    if not in_directory:
        raise SystemExit(f"{xsdir}: no 'directory' line: this is not an xsdir")
    return entries


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("xsdir")
    parser.add_argument("out_dir")
    args = parser.parse_args()

    nuclides = {}  # name -> IncidentNeutron, every temperature of it
    for zaid, path in xsdir_neutron_tables(args.xsdir):
        table = openmc.data.ace.get_table(path, zaid)
        data = openmc.data.IncidentNeutron.from_ace(table)
        if data.name in nuclides:
            nuclides[data.name].add_temperature_from_ace(table)
        else:
            nuclides[data.name] = data
        print(f"{zaid} ({path}): {data.name} at {table.temperature * 1e6 / openmc.data.K_BOLTZMANN:.1f} K")

    os.makedirs(args.out_dir, exist_ok=True)
    library = openmc.data.DataLibrary()
    for name, data in nuclides.items():
        if 4 not in data and data.get_reaction_components(4):
            data.reactions[4] = data[4]  # redundant: built from the levels, at every temperature
        h5 = os.path.join(args.out_dir, f"{name}.h5")
        data.export_to_hdf5(h5, "w")
        library.register_file(h5)
    library.export_to_xml(os.path.join(args.out_dir, "cross_sections.xml"))
    print(f"{len(nuclides)} nuclides in {os.path.join(args.out_dir, 'cross_sections.xml')}")


if __name__ == "__main__":
    main()
