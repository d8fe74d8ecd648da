package io.qdrant.esgateway.adapter.out.lucene.analysis;

import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest;
import io.qdrant.esgateway.domain.analysis.AnalyzedToken;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code *_path} analysis settings: files read from the config directory when the analyzers are built, with
 * Elasticsearch's precedence (inline {@code stopwords}/{@code synonyms} over the file; the file over inline
 * {@code keywords}, {@code articles}, {@code mappings}), comment and blank-line rules, and its errors at creation.
 */
class AnalysisFilesTest {
    private final LuceneTextAnalysis analysis = new LuceneTextAnalysis();
    private Path previous;
    @TempDir
    Path root;
    private Path config;

    @BeforeEach
    void configure() throws IOException {
        previous = AnalysisFiles.configDir();
        config = Files.createDirectories(root.resolve("config"));
        AnalysisFiles.configure(config);
        Files.writeString(config.resolve("stop.txt"), "# stop words\nthe\n\n  and  \n#not\n");
        Files.createDirectories(config.resolve("analysis"));
        Files.writeString(config.resolve("analysis/synonyms.txt"), "# rules\ntv, television\n\nsneakers => shoes\n");
        Files.writeString(config.resolve("keywords.txt"), "running\n");
        Files.writeString(config.resolve("mappings.txt"), "# mapping\n& => and\nph => f\n");
        Files.writeString(config.resolve("articles.txt"), "l\n");
        Files.writeString(config.resolve("protected.txt"), "wi-fi\n");
        Files.writeString(root.resolve("outside.txt"), "x\n");
    }

    @AfterEach
    void restore() {
        AnalysisFiles.configure(previous);
    }

    private List<String> tokens(String request) {
        return analysis.analyze(Optional.empty(), AnalyzeRequest.parse(json(request))).stream()
                .map(AnalyzedToken::token).toList();
    }

    private static GatewayException failure(Runnable r) {
        Throwable t = catchThrowable(r::run);
        assertThat(t).isInstanceOf(GatewayException.class);
        return (GatewayException) t;
    }

    private static AnalysisSettings settings(String json) {
        return IndexSettings.parse(json(json)).analysis();
    }

    @Test
    void word_lists_come_from_files_without_comments_and_blank_lines() {
        assertThat(tokens("{'tokenizer':'standard','filter':[{'type':'stop','stopwords_path':'stop.txt'}],"
                + "'text':'the cat and the hat #not'}")).containsExactly("cat", "hat", "not");
        assertThat(tokens("{'tokenizer':'standard','filter':['lowercase',{'type':'keyword_marker',"
                + "'keywords_path':'keywords.txt'},{'type':'porter_stem'}],'text':'running jumping'}"))
                .containsExactly("running", "jump");
        assertThat(tokens("{'tokenizer':'standard','filter':[{'type':'elision','articles_path':'articles.txt'}],"
                + "'text':'l\\u0027avion d\\u0027abord'}")).containsExactly("avion", "d'abord");
        assertThat(tokens("{'tokenizer':'whitespace','filter':[{'type':'word_delimiter_graph',"
                + "'protected_words_path':'protected.txt'}],'text':'wi-fi a-b'}")).containsExactly("wi-fi", "a", "b");
        assertThat(tokens("{'tokenizer':'standard','char_filter':[{'type':'mapping','mappings_path':'mappings.txt'}],"
                + "'text':'salt & phone'}")).containsExactly("salt", "and", "fone");
    }

    @Test
    void the_inline_list_wins_over_the_file_where_elasticsearch_reads_it_first() {
        assertThat(tokens("{'tokenizer':'standard','filter':[{'type':'stop','stopwords':['cat'],"
                + "'stopwords_path':'stop.txt'}],'text':'the cat'}")).containsExactly("the");
        assertThat(tokens("{'tokenizer':'standard','filter':[{'type':'synonym','synonyms':['a, b'],"
                + "'synonyms_path':'analysis/synonyms.txt'}],'text':'tv a'}")).containsExactly("tv", "a", "b");
        assertThat(tokens("{'tokenizer':'standard','char_filter':[{'type':'mapping','mappings':['x => y'],"
                + "'mappings_path':'mappings.txt'}],'text':'x &'}")).containsExactly("x", "and");
    }

    @Test
    void synonyms_come_from_a_file_in_a_subdirectory() {
        assertThat(tokens("{'tokenizer':'standard','filter':['lowercase',{'type':'synonym',"
                + "'synonyms_path':'analysis/synonyms.txt'}],'text':'TV sneakers'}"))
                .containsExactly("tv", "television", "shoes");
    }

    @Test
    void a_missing_file_fails_at_creation_with_elasticsearchs_message() {
        GatewayException e = failure(() -> analysis.validate(settings("{'analysis':{'filter':{'s':{"
                + "'type':'synonym','synonyms_path':'missing.txt'}}}}")));
        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(e.reason()).isEqualTo("IOException while reading synonyms_path_path: "
                + config.toAbsolutePath().normalize().resolve("missing.txt"));
        assertThat(e.gatewayCause().javaType()).as("ES shows the Java exception as caused_by")
                .isEqualTo("no_such_file_exception");
        assertThat(e.gatewayCause().reason()).isEqualTo(config.toAbsolutePath().normalize().resolve("missing.txt")
                .toString());
        assertThat(failure(() -> analysis.validate(settings("{'analysis':{'analyzer':{'a':{"
                + "'type':'english','stopwords_path':'nope/stop.txt'}}}}"))).reason())
                .isEqualTo("IOException while reading stopwords_path: "
                        + config.toAbsolutePath().normalize().resolve("nope/stop.txt"));
    }

    @Test
    void a_path_outside_the_config_directory_is_refused() {
        String outside = root.resolve("outside.txt").toAbsolutePath().normalize().toString();
        GatewayException absolute = failure(() -> analysis.validate(settings("{'analysis':{'filter':{'s':{"
                + "'type':'stop','stopwords_path':'" + outside + "'}}}}")));
        assertThat(absolute.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(absolute.reason()).isEqualTo("Access denied trying to read file stopwords_path: " + outside);
        assertThat(failure(() -> analysis.validate(settings("{'analysis':{'char_filter':{'m':{"
                + "'type':'mapping','mappings_path':'../outside.txt'}}}}"))).reason())
                .isEqualTo("Access denied trying to read file mappings_path: " + outside);
        String inside = config.resolve("stop.txt").toAbsolutePath().toString();
        assertThat(tokens("{'tokenizer':'standard','filter':[{'type':'stop','stopwords_path':'" + inside + "'}],"
                + "'text':'the end'}")).as("an absolute path inside the config directory").containsExactly("end");
    }
}
