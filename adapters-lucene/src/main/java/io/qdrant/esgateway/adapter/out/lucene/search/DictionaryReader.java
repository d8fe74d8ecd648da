package io.qdrant.esgateway.adapter.out.lucene.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.lucene.index.BaseTermsEnum;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.ImpactsEnum;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SlowImpactsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * A one-segment reader whose term dictionary, for the fields it is given, is the whole index's: each term with the
 * whole index's {@code docFreq} and no postings. Queries that expand terms from the dictionary with a limit (fuzzy,
 * phrase prefix) are rewritten against it, so they choose the same terms, and blend the same frequencies, as over the
 * whole index; the expanded terms then run on the candidates' own index ({@link FuzzyExpansions}).
 */
final class DictionaryReader extends FilterDirectoryReader {
    private final Function<String, Map<String, Long>> dictionaries;

    /** A reader of one empty document whose dictionaries are {@code dictionaries} (null: the field has none). */
    static DictionaryReader of(Function<String, Map<String, Long>> dictionaries) throws IOException {
        org.apache.lucene.store.ByteBuffersDirectory directory = new org.apache.lucene.store.ByteBuffersDirectory();
        try (org.apache.lucene.index.IndexWriter writer = new org.apache.lucene.index.IndexWriter(directory,
                new org.apache.lucene.index.IndexWriterConfig())) {
            writer.addDocument(new org.apache.lucene.document.Document());
        }
        return new DictionaryReader(DirectoryReader.open(directory), dictionaries);
    }

    private DictionaryReader(DirectoryReader in, Function<String, Map<String, Long>> dictionaries) throws IOException {
        super(in, new SubReaderWrapper() {
            @Override
            public LeafReader wrap(LeafReader reader) {
                return new Leaf(reader, dictionaries);
            }
        });
        this.dictionaries = dictionaries;
    }

    @Override
    protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) throws IOException {
        return new DictionaryReader(in, dictionaries);
    }

    @Override
    public CacheHelper getReaderCacheHelper() {
        return null;
    }

    private static final class Leaf extends FilterLeafReader {
        private final Function<String, Map<String, Long>> dictionaries;

        Leaf(LeafReader in, Function<String, Map<String, Long>> dictionaries) {
            super(in);
            this.dictionaries = dictionaries;
        }

        @Override
        public Terms terms(String field) throws IOException {
            Terms local = super.terms(field);
            Map<String, Long> global = dictionaries.apply(field);
            return global == null ? local : new GlobalTerms(global);
        }

        @Override
        public CacheHelper getCoreCacheHelper() {
            return null;
        }

        @Override
        public CacheHelper getReaderCacheHelper() {
            return null;
        }
    }

    /**
     * The whole index's terms, sorted as Lucene sorts terms; automaton intersections (fuzzy) run over this
     * enumeration.
     */
    private static final class GlobalTerms extends Terms {
        private final BytesRef[] terms;
        private final long[] docFreqs;

        GlobalTerms(Map<String, Long> global) {
            TreeMap<BytesRef, Long> all = new TreeMap<>();
            global.forEach((term, df) -> all.put(new BytesRef(term), df));
            terms = all.keySet().toArray(new BytesRef[0]);
            docFreqs = new long[terms.length];
            int i = 0;
            for (long df : all.values()) {
                docFreqs[i++] = Math.max(1, df);
            }
        }

        @Override
        public TermsEnum iterator() throws IOException {
            return new GlobalTermsEnum(terms, docFreqs);
        }

        @Override
        public long size() {
            return terms.length;
        }

        @Override
        public long getSumTotalTermFreq() {
            return 0;
        }

        @Override
        public long getSumDocFreq() {
            return 0;
        }

        @Override
        public int getDocCount() {
            return 0;
        }

        @Override
        public boolean hasFreqs() {
            return true;
        }

        @Override
        public boolean hasOffsets() {
            return false;
        }

        @Override
        public boolean hasPositions() {
            return true;
        }

        @Override
        public boolean hasPayloads() {
            return false;
        }
    }

    private static final class GlobalTermsEnum extends BaseTermsEnum {
        private final BytesRef[] terms;
        private final long[] docFreqs;
        private int at = -1;

        GlobalTermsEnum(BytesRef[] terms, long[] docFreqs) {
            this.terms = terms;
            this.docFreqs = docFreqs;
        }

        @Override
        public SeekStatus seekCeil(BytesRef text) {
            int i = Arrays.binarySearch(terms, text);
            if (i >= 0) {
                at = i;
                return SeekStatus.FOUND;
            }
            at = -i - 1;
            return at >= terms.length ? SeekStatus.END : SeekStatus.NOT_FOUND;
        }

        @Override
        public void seekExact(long ord) {
            at = (int) ord;
        }

        @Override
        public BytesRef term() {
            return terms[at];
        }

        @Override
        public long ord() {
            return at;
        }

        @Override
        public int docFreq() {
            return (int) Math.min(Integer.MAX_VALUE, docFreqs[at]);
        }

        @Override
        public long totalTermFreq() {
            return docFreqs[at];
        }

        @Override
        public PostingsEnum postings(PostingsEnum reuse, int flags) {
            return new NoPostings();
        }

        @Override
        public ImpactsEnum impacts(int flags) {
            return new SlowImpactsEnum(new NoPostings());
        }

        @Override
        public BytesRef next() {
            if (at + 1 >= terms.length) {
                at = terms.length;
                return null;
            }
            return terms[++at];
        }
    }

    /** The postings of a term no candidate holds. */
    private static final class NoPostings extends PostingsEnum {
        private int doc = -1;

        @Override
        public int freq() {
            return 0;
        }

        @Override
        public int nextPosition() {
            return -1;
        }

        @Override
        public int startOffset() {
            return -1;
        }

        @Override
        public int endOffset() {
            return -1;
        }

        @Override
        public BytesRef getPayload() {
            return null;
        }

        @Override
        public int docID() {
            return doc;
        }

        @Override
        public int nextDoc() {
            doc = NO_MORE_DOCS;
            return doc;
        }

        @Override
        public int advance(int target) {
            doc = NO_MORE_DOCS;
            return doc;
        }

        @Override
        public long cost() {
            return 0;
        }
    }
}
