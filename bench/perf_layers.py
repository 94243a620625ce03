#!/usr/bin/env python3
"""Shares of the server's CPU by layer, from `perf script` output whose Swift names are demangled.

Reads `perf script` text on standard input (each sample a header line, then one frame per line, leaf first) and
charges every sample to one layer: the first frame, walking from the leaf towards the root, that matches a layer's
pattern. So malloc called by the store is the store's, `writev` called by NIO's flush is writing's, and the socket
read under NIO's read loop is reading's. Record one process (`perf record -g -p PID`): every sample counts.

    perf script -i perf.data | swift demangle --simplified | python3 bench/perf_layers.py --top 15
"""
import argparse
import re
import sys
from collections import Counter

# Leaf-first, first match wins; order among layers matters only for a frame that matches two patterns.
LAYERS = [
    ("fault layer", r"FaultLayer\."),
    ("request check (traffic monitor)", r"ExchangeValidator\.|RequestValidation|CompiledSchema|CompiledRequestCheck|ExchangeMonitor\.|"
                                         r"ContractCoverage\.|ViolationLog\.|Exchange\.init|ContractSet\.match|PathTemplate\.match|"
                                         r"KnownDefectList|ExchangeInvariants"),
    ("journal", r"recordExchange|Journal\.|JournalEntry|JournalStream|CapturedBody|HeaderField|ErrorEnvelopeSummary|basicAuthUser|"
                r"logRequest"),
    # The names before the store and rules were built from the contracts (9030c3c) are listed too, so both compare.
    ("store", r"RecordStore|RecordLayout|RecordTable|RecordStoreState|ModelRandom|RequestIDSource|State\.insert|State\.evict|"
              r"AnnouncementStore|Announcement\.json|PetSpotRandom"),
    ("rules", r"BodyRules|QueryRules|RuleContext|ValueRule|StoragePlan|ModelRules|firstRefusal|HTMLSanitizer|JavaScript|"
              r"CreateAnnouncementValidator"),
    ("JSON parsing", r"JSONBodyParser|JSONValue\.init\(parsing|JSONParser|JSONReader"),
    ("routing", r"RouteTable\.|ModelBackend\.target|contractID|PetSpotRoute"),
    ("answer: headers, ETag, envelope", r"ModelBackend\.finish|PetSpotBackend\.finish|ExpressETag|conditionalize|serializedBytes|"
                                        r"appendSerialized|ModelBackend\.json|withSecret|withPassword|Timestamp"),
    ("writing the answer (encoder, writev)", r"HTTPResponseEncoder|HTTPConnectionHandler\.write|HTTPConnectionHandler\.finish|"
                                             r"responseHead|writev|sendmsg|tcp_sendmsg|flush|PendingStreamWritesManager|"
                                             r"__x64_sys_write|ksys_write"),
    ("HTTP parsing", r"HTTPDecoder|llhttp|c_nio_llhttp|HTTPServerPipelineHandler|HTTPServerProtocolErrorHandler|makeHead|"
                     r"HTTPConnectionStateMachine|MockRequest\.init"),
    ("the backend's own create", r"ModelBackend\.|PetSpotBackend\."),
    ("connection handler, NIO pipeline in between", r"HTTPConnectionHandler"),
    ("reading the socket", r"readFromSocket|__x64_sys_read|ksys_read|recvmsg|tcp_recvmsg|BaseSocketChannel\.readable"),
    ("event loop, scheduling, epoll", r"SelectableEventLoop|epoll|Selector|schedule|futex|NIOThread"),
]
COMPILED = [(name, re.compile(pattern)) for name, pattern in LAYERS]


def samples(stream):
    header, frames = None, []
    for line in stream:
        line = line.rstrip("\n")
        if not line.strip():
            if header is not None:
                yield header, frames
            header, frames = None, []
        elif header is None:
            header = line
        else:
            frames.append(line.strip())
    if header is not None:
        yield header, frames


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--top", type=int, default=0, help="also print the N hottest leaf functions of 'other'")
    args = parser.parse_args()
    counts, total, other = Counter(), 0, Counter()
    for _, frames in samples(sys.stdin):
        total += 1
        for frame in frames:
            layer = next((name for name, pattern in COMPILED if pattern.search(frame)), None)
            if layer:
                counts[layer] += 1
                break
        else:
            counts["other"] += 1
            if frames:
                other[frames[0][:140]] += 1
    if not total:
        sys.exit("no samples")
    print(f"{total} samples")
    for name, _ in LAYERS + [("other", None)]:
        print(f"{counts[name] * 100 / total:6.1f} %  {name}")
    for frame, n in other.most_common(args.top):
        print(f"        {n * 100 / total:5.1f} %  {frame}")


if __name__ == "__main__":
    main()
