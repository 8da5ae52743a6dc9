/// Words too common to characterize a text.
enum StopWords {
    static let english: Set<String> = [
        "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as",
        "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
        "did", "do", "does", "doing", "down", "during", "each", "even", "few", "for", "from", "further", "get",
        "got", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his",
        "how", "however", "i", "if", "in", "into", "is", "it", "it's", "its", "itself", "just", "like", "made",
        "make", "many", "may", "me", "might", "more", "most", "much", "must", "my", "myself", "new", "no", "nor",
        "not", "now", "of", "off", "on", "once", "one", "only", "or", "other", "our", "ours", "ourselves", "out",
        "over", "own", "per", "said", "same", "say", "says", "she", "should", "since", "so", "some", "still",
        "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they",
        "this", "those", "through", "to", "too", "under", "until", "up", "us", "use", "used", "using", "very",
        "was", "we", "well", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
        "with", "within", "without", "would", "yet", "you", "your", "yours", "yourself", "yourselves",
        "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "can't", "won't", "i'm", "i've",
        "you're", "we're", "they're", "that's", "there's", "let's",
    ]
}
