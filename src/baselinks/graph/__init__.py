"""graph: every document's links → a link graph at page, host or domain level, as Common Crawl
builds its web graphs, on one machine in bounded memory (the Spark job: spark/graph.py).

Open first: build.py

    build.py      build_graph(): the inputs' documents (api.iter_pages, or extract's output),
                  named, gathered, sorted, written; --resume's checkpoints
    names.py      a URL → its vertex name at a level (SURT key, reversed host or domain), or
                  the counted reason it has none; a document's links → its counted targets
    hosts.py      hosts named as cc-pyspark names them, domains as cc-webgraph folds them
    records.py    extract's own JSON Lines or Parquet read back as a graph's input
    folder.py     the output folder: checked, held by one run, a work folder, checkpoints
    sort.py       ExternalGraph: vertex IDs in name order and distinct sorted edges with their
                  counts, by external sort (sorted runs in temporary files, merged)
    files.py      vertices and edges as TSV (WebGraph, networkit, igraph), Parquet
                  (GraphFrames) or Common Crawl's released layout (gzip text)
    ranks.py      PageRank and harmonic centrality of a graph's vertices (igraph: the ranks
                  extra), in Common Crawl's layout too

It comes after the pipeline (api.py): it runs extraction, and writes what it made of it.
"""

from .build import GraphOptions, GraphSummary, build_graph

__all__ = ["GraphOptions", "GraphSummary", "build_graph"]
