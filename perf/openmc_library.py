#!/usr/bin/env python3
"""A keff HDF5 nuclear-data library (io/library/LIBRARY_FORMAT.md, e.g. from `keff data generate`) written
as an OpenMC continuous-energy library: one OpenMC HDF5 file per nuclide and a cross_sections.xml, so
OpenMC transports with exactly keff's cross sections. Used by perf/thermal_openmc.sh.

What keff's data means, in OpenMC's terms (the same physics, reaction by reaction):
  elastic (MT 2)  keff's `elastic` column at temperature T as keff's lookup reads it (broadened at each grid
                  point when Params are built, src/params/broaden_free_gas.cpp): the 0 K column times the
                  free-gas factor F(sqrt(A E / kT)) where the target moves (below 400 kT; every energy for
                  A < 1), the same points, so both codes interpolate one table; a constant cross section Doppler-broadened to T,
                  which is what OpenMC expects its tables at T to hold; isotropic in the centre-of-mass
                  frame (no angular data, which OpenMC reads as isotropic)
  capture (MT 102) keff's `capture` column
  fission (MT 18) keff's `fission` column; one prompt neutron product with nu(E) = nu0 + nu1 E[MeV] (a
                  polynomial in eV) and the Watt spectrum exp(-E/a) sinh(sqrt(b E)) (a, b in eV units),
                  isotropic. keff rejects Watt energies above 20 MeV, OpenMC above E_in + 20 MeV: the
                  spectrum above 20 MeV holds about 1e-6 of it.
Each nuclide holds one table per temperature given (--temperatures, K: those of the problem's
materials), differing only in their elastic scattering; free-gas target motion uses the material's
temperature in both codes.

    perf/openmc_library.py KEFF_LIBRARY.h5 OUT_DIR --temperatures 296[,600] [--nuclides U235,U238,C12]

OUT_DIR/cross_sections.xml is what openmc.Materials.cross_sections (or OPENMC_CROSS_SECTIONS) names.
"""
import argparse
import os

import h5py
import numpy as np
import openmc.data
from scipy.special import erf

FREE_GAS_CUTOFF_KT = 400  # kernels/free_gas_rate.hpp


def free_gas_elastic(energy, elastic, awr, kt):
    """keff's elastic cross section in a material at kt (eV): kernels/free_gas_rate.hpp's factor at each point."""
    moves = (awr < 1) | (energy < FREE_GAS_CUTOFF_KT * kt)
    y = np.sqrt(awr * energy / kt)
    factor = (1 + 1 / (2 * y * y)) * erf(y) + np.exp(-y * y) / (np.sqrt(np.pi) * y)
    return np.where(moves, elastic * factor, elastic)

def read_keff_nuclide(group):
    a = group.attrs
    return {
        "id": int(a["id"]), "fissile": bool(a["fissile"]), "awr": float(a["awr"]),
        "nu0": float(a["nu0"]), "nu1": float(a["nu1"]),
        "watt_a": float(a["watt_a"]), "watt_b": float(a["watt_b"]),
        "energy": group["energy"][()], "elastic": group["elastic"][()],
        "capture": group["capture"][()], "fission": group["fission"][()],
    }


def reaction(mt, energy, xs_by_label):
    rx = openmc.data.Reaction(mt)
    for label, xs in xs_by_label.items():
        rx.xs[label] = openmc.data.Tabulated1D(energy, xs)
    return rx


def incident_neutron(name, data, temperatures_k):
    z, a = divmod(data["id"], 1000)
    kts = [openmc.data.K_BOLTZMANN * t for t in temperatures_k]
    nuclide = openmc.data.IncidentNeutron(name, z, a, 0, data["awr"], kts)
    labels = nuclide.temperatures  # OpenMC's names for them: "296K"
    energy = data["energy"]
    for label in labels:
        nuclide.energy[label] = energy
    same = lambda column: {label: data[column] for label in labels}

    elastic = reaction(2, energy, {label: free_gas_elastic(energy, data["elastic"], data["awr"], kt)
                                   for label, kt in zip(labels, kts)})
    elastic.center_of_mass = True
    product = openmc.data.Product("neutron")
    product.distribution = [openmc.data.UncorrelatedAngleEnergy()]
    elastic.products.append(product)
    nuclide.reactions[2] = elastic

    nuclide.reactions[102] = reaction(102, energy, same("capture"))

    if data["fissile"]:
        fission = reaction(18, energy, same("fission"))
        neutron = openmc.data.Product("neutron")
        neutron.emission_mode = "prompt"
        neutron.yield_ = openmc.data.Polynomial([data["nu0"], data["nu1"] * 1.0e-6])
        watt = openmc.data.WattEnergy(
            openmc.data.Tabulated1D([energy[0], energy[-1]], [data["watt_a"] * 1.0e6] * 2),
            openmc.data.Tabulated1D([energy[0], energy[-1]], [data["watt_b"] * 1.0e-6] * 2),
            -2.0e7)
        neutron.distribution = [openmc.data.UncorrelatedAngleEnergy(energy=watt)]
        fission.products.append(neutron)
        nuclide.reactions[18] = fission
    return nuclide


def convert(keff_library, out_dir, temperatures_k, names=None):
    """Writes OUT_DIR/<name>.h5 for each nuclide (all, or `names`) and OUT_DIR/cross_sections.xml."""
    os.makedirs(out_dir, exist_ok=True)
    library = openmc.data.DataLibrary()
    with h5py.File(keff_library, "r") as f:
        if f.attrs.get("filetype", b"").decode() != "keff nuclear data":
            raise SystemExit(f"{keff_library}: not a keff nuclear-data library")
        present = [n.decode().rstrip("\0") for n in f["index/name"][()]]
        wanted = present if names is None else names
        for name in wanted:
            if name not in present:
                raise SystemExit(f"{keff_library}: no nuclide '{name}' (it holds {len(present)}: {', '.join(present[:12])}, ...)")
            nuclide = incident_neutron(name, read_keff_nuclide(f["nuclides"][name]), temperatures_k)
            path = os.path.join(out_dir, f"{name}.h5")
            nuclide.export_to_hdf5(path, "w")
            library.register_file(path)
    xml = os.path.join(out_dir, "cross_sections.xml")
    library.export_to_xml(xml)
    return xml


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("library", help="a keff HDF5 nuclear-data library")
    parser.add_argument("out_dir")
    parser.add_argument("--temperatures", required=True, help="K, comma-separated: those of the problem's materials")
    parser.add_argument("--nuclides", help="comma-separated names (default: every nuclide)")
    args = parser.parse_args()
    names = args.nuclides.split(",") if args.nuclides else None
    temperatures = [float(t) for t in args.temperatures.split(",")]
    print(convert(args.library, args.out_dir, temperatures, names))


if __name__ == "__main__":
    main()
