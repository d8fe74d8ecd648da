package io.qdrant.esgateway.compat.spring;

import java.time.LocalDate;
import java.util.List;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;
import org.springframework.data.elasticsearch.annotations.DateFormat;
import org.springframework.data.elasticsearch.annotations.Document;
import org.springframework.data.elasticsearch.annotations.Field;
import org.springframework.data.elasticsearch.annotations.FieldType;
import org.springframework.data.elasticsearch.annotations.Setting;

/**
 * An entity with Spring Data's default mapping ({@code _class}, {@code @Field} types, {@code @Id},
 * {@code @Version}) and index settings with an analysis definition that Elasticsearch's core knows (a configured
 * {@code standard} analyzer), so that Elasticsearch 8.15 from Maven can answer it too.
 */
@Document(indexName = "spring-books")
@Setting(settingPath = "spring/books-settings.json")
public class Book {
    @Id
    private String id;
    @Version
    private Long version;
    @Field(type = FieldType.Text, analyzer = "english_stop")
    private String title;
    @Field(type = FieldType.Keyword)
    private String author;
    @Field(type = FieldType.Keyword)
    private List<String> tags;
    @Field(type = FieldType.Integer)
    private Integer pages;
    @Field(type = FieldType.Double)
    private Double price;
    @Field(type = FieldType.Date, format = DateFormat.date)
    private LocalDate published;
    @Field(type = FieldType.Boolean)
    private boolean available;

    public Book() {
    }

    Book(String id, String title, String author, List<String> tags, int pages, double price, LocalDate published,
         boolean available) {
        this.id = id;
        this.title = title;
        this.author = author;
        this.tags = tags;
        this.pages = pages;
        this.price = price;
        this.published = published;
        this.available = available;
    }

    public String getId() {
        return id;
    }

    public Long getVersion() {
        return version;
    }

    public void setVersion(Long version) {
        this.version = version;
    }

    public Integer getPages() {
        return pages;
    }

    public void setPages(Integer pages) {
        this.pages = pages;
    }

    public void setTitle(String title) {
        this.title = title;
    }

    @Override
    public String toString() {
        return id + "{v" + version + " " + title + " | " + author + " " + tags + " " + pages + "p " + price + " "
                + published + " " + available + "}";
    }
}
