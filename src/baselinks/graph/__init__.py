"""graph: every document's links → a link graph at page, host or domain level, as Common Crawl
builds its host graph, on one machine in bounded memory (the Spark job: spark.py).

Open first: build.py

    build.py      build_graph(): the inputs' documents (api.iter_pages), named, gathered, sorted
    names.py      a URL → its vertex name at a level (SURT key, reversed host or domain), or
                  the counted reason it has none; a document's links → its target names
    sort.py       ExternalGraph: vertex IDs in name order and distinct sorted edges, by
                  external sort (sorted runs in temporary files, merged)
    files.py      vertices and edges as TSV (WebGraph, networkit, igraph) or Parquet (GraphFrames)
    ranks.py      PageRank and harmonic centrality of a graph's vertices (igraph: the ranks extra)

It comes after the pipeline (api.py): it runs extraction, and writes what it made of it.
"""

from .build import GraphSummary, build_graph

__all__ = ["GraphSummary", "build_graph"]
