#!/usr/bin/python3
"""Writes a synthetic AWS EC2 regional offer file in the real format, deterministically.

usage: bench/gen_aws_offer.py OUT.json [--mb 300] [--region us-east-1]

The layout is the Price List offer file's (formatVersion, disclaimer, offerCode, version,
publicationDate, products by SKU with productFamily and ~40 attributes, then terms: OnDemand
and Reserved by SKU and offer term, priceDimensions with unit/pricePerUnit, termAttributes),
pretty-printed as AWS prints it ("key" : "value", two-space indent). Products are every
instance type x operating system x tenancy x capacity status, as in a real regional file;
about one type in 25 has GPUs (attribute gpu > 0), with the catalog's own type names for some
so the import keeps them. SKUs and term codes are derived from a counter, prices from a seeded
random generator: the same arguments give the same bytes. Streams its output (constant memory).
"""
import argparse
import random

OS = [("Linux", "NA"), ("Windows", "NA"), ("RHEL", "NA"), ("SUSE", "NA"),
      ("Windows", "SQL Std"), ("Windows", "SQL Web"), ("Linux", "SQL Ent"), ("Ubuntu Pro", "NA")]
TENANCY = ["Shared", "Dedicated", "Host"]
CAPACITY = ["Used", "UnusedCapacityReservation", "AllocatedCapacityReservation"]
GPU_TYPES = [("g4dn.xlarge", 1, 4, "16 GiB", "Up to 25 Gigabit", "1 x 125 NVMe SSD", "16 GB"),
             ("g5.xlarge", 1, 4, "16 GiB", "Up to 10 Gigabit", "1 x 250 NVMe SSD", "24 GB"),
             ("g6e.xlarge", 1, 4, "32 GiB", "Up to 20 Gigabit", "1 x 250 NVMe SSD", "48 GB"),
             ("p5.48xlarge", 8, 192, "2048 GiB", "3200 Gigabit", "8 x 3840 NVMe SSD", "640 GB")]
SIZES = ["large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge"]
LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
RESERVED = [(lease, cls, opt) for lease in ("1yr", "3yr") for cls in ("standard", "convertible")
            for opt in ("No Upfront", "Partial Upfront", "All Upfront")]


def code(n, width=16):
    out = []
    for _ in range(width):
        n, r = divmod(n * 2654435761 + 97, len(LETTERS))
        out.append(LETTERS[r])
    return "".join(out)


def q(s):
    return '"' + s + '"'


def product(out, sku, itype, os_, sw, tenancy, capacity, gpu, region, first):
    spec = next((g for g in GPU_TYPES if g[0] == gpu), None)
    vcpu = spec[2] if spec else 2 ** (SIZES.index(itype.split(".")[1]) + 1)
    attrs = [
        ("servicecode", "AmazonEC2"), ("location", "US East (N. Virginia)"),
        ("locationType", "AWS Region"), ("instanceType", itype), ("currentGeneration", "Yes"),
        ("instanceFamily", "GPU instance" if gpu else "General purpose"), ("vcpu", str(vcpu)),
        ("physicalProcessor", "Intel Xeon Platinum 8375C"), ("clockSpeed", "2.9 GHz"),
        ("memory", spec[3] if spec else "%d GiB" % (vcpu * 4)),
        ("storage", spec[5] if spec else "EBS only"),
        ("networkPerformance", spec[4] if spec else "Up to 12500 Megabit"),
        ("processorArchitecture", "64-bit"), ("tenancy", tenancy), ("operatingSystem", os_),
        ("licenseModel", "No License required" if "Windows" not in os_ else "License included"),
        ("usagetype", "BoxUsage:" + itype), ("operation", "RunInstances"),
        ("availabilityzone", "NA"), ("capacitystatus", capacity), ("classicnetworkingsupport", "false"),
        ("dedicatedEbsThroughput", "Up to 10000 Mbps"), ("ecu", "NA"),
        ("enhancedNetworkingSupported", "Yes"), ("intelAvxAvailable", "Yes"),
        ("intelAvx2Available", "Yes"), ("intelTurboAvailable", "Yes"), ("marketoption", "OnDemand"),
        ("normalizationSizeFactor", "4"), ("preInstalledSw", sw),
        ("processorFeatures", "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo"),
        ("regionCode", region), ("servicename", "Amazon Elastic Compute Cloud"),
        ("vpcnetworkingsupport", "true")]
    if spec:
        attrs[10:10] = [("gpu", str(spec[1])), ("gpuMemory", spec[6])]
    body = ",\n".join('        %s : %s' % (q(k), q(v)) for k, v in attrs)
    out.write('%s    %s : {\n      "sku" : %s,\n      "productFamily" : "Compute Instance",\n'
              '      "attributes" : {\n%s\n      }\n    }' % ("" if first else ",\n", q(sku), q(sku), body))


def dimension(sku, term, rate, unit, price, desc):
    return ('          %s : {\n            "rateCode" : %s,\n            "description" : %s,\n'
            '            "beginRange" : "0",\n            "endRange" : "Inf",\n            "unit" : %s,\n'
            '            "pricePerUnit" : {\n              "USD" : %s\n            },\n'
            '            "appliesTo" : [ ]\n          }') % (
        q(rate), q(rate), q(desc), q(unit), q("%.10f" % price))


def term(sku, tcode, effective, dims, attrs):
    dim_text = ",\n".join(dims)
    attr_text = ",\n".join('          %s : %s' % (q(k), q(v)) for k, v in attrs)
    return ('      %s : {\n        "offerTermCode" : %s,\n        "sku" : %s,\n'
            '        "effectiveDate" : %s,\n        "priceDimensions" : {\n%s\n        },\n'
            '        "termAttributes" : {%s}\n      }') % (
        q(sku + "." + tcode), q(tcode), q(sku), q(effective), dim_text,
        ("\n" + attr_text + "\n        ") if attrs else " ")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--mb", type=float, default=300)
    parser.add_argument("--region", default="us-east-1")
    args = parser.parse_args()
    rnd = random.Random(31)
    target = int(args.mb * 1e6)
    types = []
    for fam in (f + s for f in ("m", "c", "r", "t", "x", "z", "i") for s in
                ("5", "5a", "5n", "6i", "6a", "6g", "7i", "7a", "7g", "8g")):
        types += [(fam + "." + size, False) for size in SIZES]
    skus = []
    with open(args.out, "w") as out:
        out.write('{\n  "formatVersion" : "v1.0",\n  "disclaimer" : "This pricing list is for '
                  'informational purposes only. All prices are subject to the additional terms '
                  'included in the pricing pages on http://aws.amazon.com. All Free Tier prices '
                  'are also subject to the terms included at https://aws.amazon.com/free/",\n'
                  '  "offerCode" : "AmazonEC2",\n  "version" : "20261120213343",\n'
                  '  "publicationDate" : "2026-11-20T21:33:43Z",\n  "products" : {\n')
        n = 0
        written = 0
        first = True
        # products take ~45% of a real file; stop them at that share of the target
        while written < target * 0.45:
            base, _ = types[n % len(types)]
            round_ = n // len(types)
            itype = base if round_ == 0 else base.replace(".", "%d." % round_, 1)
            gpu_type = None
            if n % 25 == 0:
                gpu_type = GPU_TYPES[(n // 25) % len(GPU_TYPES)][0]
                itype = gpu_type if n // 25 < len(GPU_TYPES) else gpu_type.replace(".", "x%d." % n, 1)
            for os_, sw in OS:
                for tenancy in TENANCY:
                    for capacity in CAPACITY:
                        sku = code(len(skus))
                        start = out.tell()
                        product(out, sku, itype, os_, sw, tenancy, capacity, gpu_type, args.region, first)
                        first = False
                        written += out.tell() - start
                        skus.append((sku, itype, rnd.uniform(0.05, 40.0)))
            n += 1
        out.write('\n  },\n  "terms" : {\n    "OnDemand" : {\n')
        for i, (sku, itype, price) in enumerate(skus):
            t = term(sku, "JRTCKXETXF", "2026-11-01T00:00:00Z",
                     [dimension(sku, "JRTCKXETXF", sku + ".JRTCKXETXF.6YS6EN2CT7", "Hrs", price,
                                "$%.4f per On Demand Linux %s Instance Hour" % (price, itype))], [])
            out.write('%s    %s : {\n%s\n    }' % ("" if i == 0 else ",\n", q(sku), t))
        out.write('\n    },\n    "Reserved" : {\n')
        i = 0
        for sku, itype, price in skus:
            if out.tell() >= target:
                break
            terms = []
            for k, (lease, cls, opt) in enumerate(RESERVED):
                years = int(lease[0])
                off = (0.62 if cls == "standard" else 0.72) ** years
                hourly = 0 if opt == "All Upfront" else price * off * (0.5 if opt == "Partial Upfront" else 1)
                upfront = 0 if opt == "No Upfront" else price * off * 8760 * years * (0.5 if opt == "Partial Upfront" else 1)
                tcode = code(k + 1000, 10)
                dims = [dimension(sku, tcode, sku + "." + tcode + ".6YS6EN2CT7", "Hrs", hourly,
                                  "Linux/UNIX (Amazon VPC), %s reserved instance applied" % itype)]
                if opt != "No Upfront":
                    dims.append(dimension(sku, tcode, sku + "." + tcode + ".2TG2D8R56U", "Quantity",
                                          upfront, "Upfront Fee"))
                terms.append(term(sku, tcode, "2026-11-01T00:00:00Z", dims,
                                  [("LeaseContractLength", lease), ("OfferingClass", cls),
                                   ("PurchaseOption", opt)]))
            out.write('%s    %s : {\n%s\n    }' % ("" if i == 0 else ",\n", q(sku), ",\n".join(terms)))
            i += 1
        out.write('\n    }\n  }\n}\n')


if __name__ == "__main__":
    main()
