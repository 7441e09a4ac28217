// Lucene 8.7 as a reference engine of bench/scale.ts (bench/lucene.ts runs it; never part of
// Atlas). Run with Java's source launcher and Lucene's jars on the class path:
//
//   java -cp lucene-core-8.7.0.jar:lucene-analyzers-common-8.7.0.jar LuceneScale.java index chunks.tsv index-dir
//   java -Xmx1g -cp ... LuceneScale.java search index-dir queries.tsv warmup.tsv 10 5000
//
// The chunks file holds one chunk a line, `chunk id \t applies_to \t tokens`: the tokens Atlas
// ranks (its FTS5 tokenizer's, of the five columns), so both engines score the same terms. The
// queries files hold one query a line, `version (or -) \t tokens`. Indexed into one field with
// Lucene's BM25 (k1 1.2, b 0.75, its one-byte length norms), merged to one segment (as FTS5's
// `optimize` merges its b-trees). A query is a disjunction of term queries (block-max WAND when
// scoring the top k) and, for a version, a filter on applies_to of that version or `all`;
// `IndexSearcher.search(query, k)` as a Lucene user calls it, then each hit's stored chunk id.
// `search` prints one JSON object: what bench/scale.ts's own engine children report.

import java.io.BufferedReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

public class LuceneScale {
  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("index")) index(args[1], args[2]);
    else if (args.length == 6 && args[0].equals("search")) search(args[1], args[2], args[3], Integer.parseInt(args[4]), Long.parseLong(args[5]));
    else {
      System.err.println("usage: LuceneScale index <chunks.tsv> <index-dir> | search <index-dir> <queries.tsv> <warmup.tsv> <k> <warmup-ms>");
      System.exit(2);
    }
  }

  static void index(String chunksPath, String directory) throws Exception {
    IndexWriterConfig config = new IndexWriterConfig(new WhitespaceAnalyzer());
    config.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    config.setRAMBufferSizeMB(256);
    config.setSimilarity(new BM25Similarity());
    try (IndexWriter writer = new IndexWriter(FSDirectory.open(Paths.get(directory)), config);
        BufferedReader lines = Files.newBufferedReader(Paths.get(chunksPath))) {
      String line;
      while ((line = lines.readLine()) != null) {
        String[] fields = line.split("\t", 3);
        Document document = new Document();
        document.add(new StoredField("id", fields[0]));
        document.add(new StringField("applies_to", fields[1], Field.Store.NO));
        document.add(new TextField("text", fields.length > 2 ? fields[2] : "", Field.Store.NO));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
  }

  static Query query(String line) {
    String[] fields = line.split("\t", 2);
    BooleanQuery.Builder terms = new BooleanQuery.Builder();
    if (fields.length > 1) {
      for (String token : fields[1].split(" ")) {
        if (!token.isEmpty()) terms.add(new TermQuery(new Term("text", token)), BooleanClause.Occur.SHOULD);
      }
    }
    if (fields[0].equals("-")) return terms.build();
    return new BooleanQuery.Builder()
        .add(terms.build(), BooleanClause.Occur.MUST)
        .add(new TermInSetQuery("applies_to", new BytesRef(fields[0]), new BytesRef("all")), BooleanClause.Occur.FILTER)
        .build();
  }

  static List<Query> queries(String path) throws Exception {
    List<Query> queries = new ArrayList<>();
    for (String line : Files.readAllLines(Paths.get(path))) if (!line.isEmpty()) queries.add(query(line));
    return queries;
  }

  static String[] top(IndexSearcher searcher, Query query, int k) throws Exception {
    TopDocs found = searcher.search(query, k);
    String[] ids = new String[found.scoreDocs.length];
    for (int n = 0; n < ids.length; n++) ids[n] = searcher.doc(found.scoreDocs[n].doc).get("id");
    return ids;
  }

  static void search(String directory, String queriesPath, String warmupPath, int k, long warmupMs) throws Exception {
    long opened = System.nanoTime();
    IndexReader reader = DirectoryReader.open(FSDirectory.open(Paths.get(directory)));
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setSimilarity(new BM25Similarity());
    // No query cache: every timed query is evaluated, as Atlas's and FTS5's are.
    searcher.setQueryCache(null);
    double openMs = (System.nanoTime() - opened) / 1e6;
    List<Query> warmup = queries(warmupPath);
    List<Query> timed = queries(queriesPath);
    // Warm-up on other questions until warmupMs have passed: the JIT compiles the search first.
    long start = System.nanoTime();
    do {
      for (Query query : warmup) top(searcher, query, k);
    } while (!warmup.isEmpty() && System.nanoTime() - start < warmupMs * 1_000_000L);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    StringBuilder durations = new StringBuilder();
    StringBuilder cpuDurations = new StringBuilder();
    StringBuilder ids = new StringBuilder();
    for (Query query : timed) {
      long cpu = threads.getCurrentThreadCpuTime();
      long began = System.nanoTime();
      String[] found = top(searcher, query, k);
      long wall = System.nanoTime() - began;
      long used = threads.getCurrentThreadCpuTime() - cpu;
      if (durations.length() > 0) {
        durations.append(',');
        cpuDurations.append(',');
        ids.append(',');
      }
      durations.append(wall / 1e6);
      cpuDurations.append(used / 1e6);
      ids.append('[');
      for (int n = 0; n < found.length; n++) ids.append(n == 0 ? "" : ",").append(json(found[n]));
      ids.append(']');
    }
    long peakKb = 0;
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) peakKb = Long.parseLong(line.replaceAll("\\D", ""));
    }
    reader.close();
    System.out.println("{\"engine\":\"lucene\",\"durations\":[" + durations + "],\"cpuDurations\":[" + cpuDurations + "],\"ids\":[" + ids
        + "],\"peakRssMB\":" + Math.round(peakKb * 1024 / 1e5) / 10.0 + ",\"openMs\":" + openMs + "}");
  }

  static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
