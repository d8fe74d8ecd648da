package io.qdrant.esgateway.adapter.out.lucene;

import static io.qdrant.esgateway.adapter.out.lucene.IndexSlot.*;
import static io.qdrant.esgateway.adapter.out.lucene.StoreFiles.*;

import io.qdrant.esgateway.adapter.out.lucene.IndexSlot.Acquired;
import io.qdrant.esgateway.adapter.out.lucene.IndexSlot.IndexAction;
import io.qdrant.esgateway.adapter.out.lucene.IndexSlot.Recent;
import io.qdrant.esgateway.adapter.out.lucene.IndexSlot.StaleSlot;

import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding.BrokenInvariant;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding.RejectedValue;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.LuceneAggregations;
import io.qdrant.esgateway.adapter.out.lucene.engine.WideVectorCodec;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;
import io.qdrant.esgateway.adapter.out.lucene.search.IndexAnalyzer;
import io.qdrant.esgateway.adapter.out.lucene.search.LuceneSearch;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;
import io.qdrant.esgateway.adapter.out.lucene.encoding.CompactJsonBytes;


/**
 * Real-time GET on one open index: an id written since the last refresh is answered from the index's {@code recent}
 * map (the last write of that id, decoded as a stored document would be), every other id from the current searcher,
 * which holds every write before that refresh. The lookup is validated against {@code recentLock}: if a batch or a
 * refresh changed {@code recent} meanwhile it is done again (after a few tries, holding the read lock), so a GET of
 * several ids never sees half a batch.
 */
final class RealtimeGet {
    private RealtimeGet() {
    }

    /** The current documents with the {@code wanted} ids, in that order; absent ids are left out. */
    static Map<String, StoredDocument> get(IndexSlot slot, Set<String> wanted) throws IOException {
        for (int attempt = 0; ; attempt++) {
            boolean locked = attempt >= 3;
            long stamp = locked ? slot.recentLock.readLock() : slot.recentLock.tryOptimisticRead();
            try {
                Map<String, Recent> fromRecent = new HashMap<>();
                Set<String> rest = new LinkedHashSet<>();
                for (String id : wanted) {
                    Recent recent = slot.recent.get(id);
                    if (recent != null) {
                        fromRecent.put(id, recent);
                    } else {
                        rest.add(id);
                    }
                }
                Map<String, StoredDocument> found = Map.of();
                if (!rest.isEmpty()) {
                    try (Acquired acquired = current(slot)) {
                        found = lookup(acquired.reader(), rest);
                    }
                }
                if (!locked && !slot.recentLock.validate(stamp)) {
                    continue;
                }
                Map<String, StoredDocument> ordered = new LinkedHashMap<>();
                for (String id : wanted) {
                    Recent recent = fromRecent.get(id);
                    StoredDocument document = recent == null ? found.get(id)
                            : recent.source() == null ? null
                            : FieldEncoding.decodeForAnswer(id, recent.version(), recent.source());
                    if (document != null) {
                        ordered.put(id, document);
                    }
                }
                return ordered;
            } finally {
                if (locked) {
                    slot.recentLock.unlockRead(stamp);
                }
            }
        }
    }
}
