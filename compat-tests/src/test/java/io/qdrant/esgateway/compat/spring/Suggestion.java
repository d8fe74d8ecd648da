package io.qdrant.esgateway.compat.spring;

import org.springframework.data.annotation.Id;
import org.springframework.data.elasticsearch.annotations.Document;
import org.springframework.data.elasticsearch.annotations.Field;
import org.springframework.data.elasticsearch.annotations.FieldType;
import org.springframework.data.elasticsearch.annotations.Setting;

/**
 * An entity whose {@code @Setting} defines an autocomplete analyzer (edge n-grams at index time, a plain analyzer
 * at search time) for one field, as Spring Data applications declare search-as-you-type.
 */
@Document(indexName = "spring-suggestions", createIndex = false)
@Setting(settingPath = "spring/suggestions-settings.json")
public class Suggestion {
    @Id
    private String id;
    @Field(type = FieldType.Text, analyzer = "autocomplete", searchAnalyzer = "autocomplete_search")
    private String name;
    @Field(type = FieldType.Integer)
    private Integer popularity;

    public Suggestion() {
    }

    Suggestion(String id, String name, int popularity) {
        this.id = id;
        this.name = name;
        this.popularity = popularity;
    }

    public String getId() {
        return id;
    }

    @Override
    public String toString() {
        return id + "{" + name + " " + popularity + "}";
    }
}
