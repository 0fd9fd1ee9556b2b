// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (properties spelled as the JSON keys they decode)
import Foundation

// Codable models of the benchmark files. Property names are spelled as the JSON keys, so neither
// decoder pays for key conversion; both decode exactly these types.

struct Twitter: Codable {
    var statuses: [Status]
    var search_metadata: SearchMetadata
}

struct SearchMetadata: Codable {
    var completed_in: Double; var max_id: UInt64; var max_id_str: String; var next_results: String
    var query: String; var refresh_url: String; var count: Int; var since_id: UInt64; var since_id_str: String
}

final class Status: Codable {
    var metadata: [String: String]
    var created_at: String
    var id: UInt64
    var id_str: String
    var text: String
    var source: String
    var truncated: Bool
    var in_reply_to_status_id: UInt64?
    var in_reply_to_status_id_str: String?
    var in_reply_to_user_id: UInt64?
    var in_reply_to_user_id_str: String?
    var in_reply_to_screen_name: String?
    var user: User
    var retweet_count: Int
    var favorite_count: Int
    var entities: Entities
    var favorited: Bool
    var retweeted: Bool
    var lang: String
    var possibly_sensitive: Bool?
    var retweeted_status: Status?
}

struct User: Codable {
    var id: UInt64; var id_str: String; var name: String; var screen_name: String; var location: String
    var description: String; var url: String?; var protected: Bool; var followers_count: Int; var friends_count: Int
    var listed_count: Int; var created_at: String; var favourites_count: Int; var utc_offset: Int?
    var time_zone: String?; var geo_enabled: Bool; var verified: Bool; var statuses_count: Int; var lang: String
    var contributors_enabled: Bool; var is_translator: Bool; var is_translation_enabled: Bool
    var profile_background_color: String; var profile_background_image_url: String?
    var profile_background_image_url_https: String?; var profile_background_tile: Bool
    var profile_image_url: String; var profile_image_url_https: String; var profile_banner_url: String?
    var profile_link_color: String; var profile_sidebar_border_color: String; var profile_sidebar_fill_color: String
    var profile_text_color: String; var profile_use_background_image: Bool; var default_profile: Bool
    var default_profile_image: Bool; var following: Bool; var follow_request_sent: Bool; var notifications: Bool
}

struct Entities: Codable {
    var hashtags: [Hashtag]; var symbols: [String]; var urls: [URLEntity]; var user_mentions: [Mention]; var media: [Media]?
}

struct Hashtag: Codable { var text: String; var indices: [Int] }
struct URLEntity: Codable { var url: String; var expanded_url: String; var display_url: String; var indices: [Int] }
struct Mention: Codable { var screen_name: String; var name: String; var id: UInt64; var id_str: String; var indices: [Int] }
struct Media: Codable {
    var id: UInt64; var id_str: String; var indices: [Int]; var media_url: String; var media_url_https: String
    var url: String; var display_url: String; var expanded_url: String; var type: String
    var sizes: [String: MediaSize]; var source_status_id: UInt64?; var source_status_id_str: String?
}
struct MediaSize: Codable { var w: Int; var h: Int; var resize: String }

struct CitmCatalog: Codable {
    var areaNames: [String: String]; var audienceSubCategoryNames: [String: String]; var blockNames: [String: String]
    var events: [String: Event]; var performances: [Performance]; var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]; var subjectNames: [String: String]; var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]; var venueNames: [String: String]
}

struct Event: Codable {
    var description: String?; var id: Int; var logo: String?; var name: String; var subTopicIds: [Int]
    var subjectCode: String?; var subtitle: String?; var topicIds: [Int]
}

struct Performance: Codable {
    var eventId: Int; var id: Int; var logo: String?; var name: String?; var prices: [Price]
    var seatCategories: [SeatCategory]; var seatMapImage: String?; var start: Int; var venueCode: String
}

struct Price: Codable { var amount: Int; var audienceSubCategoryId: Int; var seatCategoryId: Int }
struct SeatCategory: Codable { var areas: [Area]; var seatCategoryId: Int }
struct Area: Codable { var areaId: Int; var blockIds: [Int] }

struct Canada: Codable {
    var type: String
    var features: [Feature]
}

struct Feature: Codable {
    var type: String
    var properties: [String: String]
    var geometry: Geometry
}

struct Geometry: Codable {
    var type: String
    var coordinates: [[[Double]]]
}

/// YYModel's GitHub-user sample (yymodel_github_user.json).
struct GitHubUser: Codable, Equatable {
    var login: String; var id: UInt64; var avatar_url: String; var gravatar_id: String; var url: String
    var html_url: String; var followers_url: String; var following_url: String; var gists_url: String
    var starred_url: String; var subscriptions_url: String; var organizations_url: String; var repos_url: String
    var events_url: String; var received_events_url: String; var type: String; var site_admin: Bool
    var name: String; var company: String?; var blog: String; var location: String; var email: String?
    var hireable: Bool?; var bio: String; var public_repos: Int; var public_gists: Int; var followers: Int
    var following: Int
}
