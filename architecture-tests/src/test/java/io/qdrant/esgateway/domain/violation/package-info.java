/**
 * Code that breaks the architecture rules on purpose, one rule each: {@code RulesCanFailTest} runs the real rules on
 * these classes and expects each to fail. Test classes only, so the rules' own run never sees them.
 */
package io.qdrant.esgateway.domain.violation;
